#pragma once
#include <memory>
#include <string>
#include <vector>

#include "planner/storage/connector/sqlite_handle.hpp"
#include "planner/storage/connector/sqlite_table.hpp"
#include "planner/exec/exec_operator.hpp"

namespace hindsight {

/// Reads a SQLite table: runs `sql` (a SELECT built by SqliteScanBuilder: the rowid first when the table has
/// one, then the scanned columns, `columns` giving their declared table columns) with `params` bound, on its own
/// read-only connection opened at the first next(). Only instance 0 produces rows (a SQLite scan is a single
/// stream). Each value is checked against the declared type (see docs/connectors.md for the accepted storage
/// classes): anything else is a DATA_ERROR naming the table, the column and the rowid.
class SqliteScanOp : public ExecOperator {
 public:
  SqliteScanOp(ExecContext* ctx, int worker, std::shared_ptr<const SqliteTable> table, std::vector<int> columns,
               std::string sql, std::vector<SqlParam> params);

 protected:
  bool next_impl(Batch& out) override;

 private:
  void start();
  void append(ColumnVector& dst, int table_column, int result_column, uint64_t row);
  [[noreturn]] void bad_value(int table_column, int result_column, uint64_t row, const std::string& expected);

  std::shared_ptr<const SqliteTable> table_;
  std::vector<int> columns_;
  std::string sql_;
  std::vector<SqlParam> params_;
  SqliteConnection conn_;
  SqliteStatement stmt_;
  bool started_ = false;
  bool done_ = false;
  uint64_t rows_read_ = 0;  ///< rows stepped so far (names the row when the table has no rowid)
};

}  // namespace hindsight
