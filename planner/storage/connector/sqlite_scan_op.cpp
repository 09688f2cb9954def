#include "planner/storage/connector/sqlite_scan_op.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "planner/common/date.hpp"
#include "planner/common/error.hpp"
#include "planner/common/text.hpp"
#include "planner/exec/batch_gather.hpp"

namespace hindsight {

namespace {
/// The TEXT of result column `i` (valid until the next step).
std::string_view text_of(sqlite3_stmt* st, int i) {
  const unsigned char* p = sqlite3_column_text(st, i);  // before column_bytes, as SQLite documents
  if (!p) return {};
  return {reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st, i))};
}
}  // namespace

SqliteScanOp::SqliteScanOp(ExecContext* ctx, int worker, std::shared_ptr<const SqliteTable> table,
                           std::vector<int> columns, std::string sql, std::vector<SqlParam> params)
    : ExecOperator("SqliteScan", ctx, worker),
      table_(std::move(table)),
      columns_(std::move(columns)),
      sql_(std::move(sql)),
      params_(std::move(params)) {
  HS_ASSERT(table_ != nullptr, "SqliteScanOp without a table");
  for (int c : columns_) {
    HS_ASSERT(c >= 0 && static_cast<size_t>(c) < table_->def.columns.size(), "scan column out of range");
    output_types_.push_back(table_->def.columns[static_cast<size_t>(c)].type);
  }
  // A SQLite table is one stream: the instance on worker 0 reads it.
  if (worker != 0) done_ = true;
}

void SqliteScanOp::start() {
  started_ = true;
  std::string error;
  if (!conn_.open_readonly(table_->path, error))
    throw Error(ErrorCode::IO_ERROR,
                fmt::format("table '{}': cannot open SQLite database '{}': {}", table_->def.name, table_->path, error));
  // A selective WHERE may step over many rows for one batch: let a timeout or a cancellation interrupt it.
  sqlite3_progress_handler(
      conn_.get(), 10000,
      [](void* self) -> int {
        const ExecContext* ctx = static_cast<SqliteScanOp*>(self)->ctx_;
        return ctx->cancelled.load() || std::chrono::steady_clock::now() > ctx->deadline ? 1 : 0;
      },
      this);
  int rc = stmt_.prepare(conn_.get(), sql_, params_, error);
  if (rc == SQLITE_MISUSE) throw_internal(__FILE__, __LINE__, fmt::format("SQLite scan of '{}': {}", table_->def.name, error));
  if (rc != SQLITE_OK)
    throw Error(ErrorCode::DATA_ERROR, fmt::format("table '{}': SQLite table '{}' of '{}' no longer matches the catalog: {}",
                                                   table_->def.name, table_->sqlite_table, table_->path, error));
}

void SqliteScanOp::bad_value(int table_column, int result_column, uint64_t row, const std::string& expected) {
  sqlite3_stmt* st = stmt_.get();
  const int type = sqlite3_column_type(st, result_column);
  std::string shown;
  if (type == SQLITE_TEXT || type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
    shown = std::string(text_of(st, result_column));
    if (shown.size() > 40) {
      size_t cut = 40;
      while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;  // a character boundary
      shown = shown.substr(0, cut) + "...";
    }
    shown = is_valid_utf8(shown) ? " '" + shown + "'" : " (not valid UTF-8)";
  }
  std::string where;
  if (table_->has_rowid && sqlite3_column_type(st, 0) != SQLITE_NULL)
    where = fmt::format("rowid {}", sqlite3_column_int64(st, 0));
  else
    where = fmt::format("row {} of the scan", row);
  const ColumnDef& col = table_->def.columns[static_cast<size_t>(table_column)];
  throw Error(ErrorCode::DATA_ERROR,
              fmt::format("table '{}' column '{}' {}: expected {} for {}, found {}{} (SQLite table '{}' of '{}')",
                          table_->def.name, col.name, where, expected, col.type.to_string(),
                          sqlite_storage_class_name(type), shown, table_->sqlite_table, table_->path));
}

void SqliteScanOp::append(ColumnVector& dst, int table_column, int rc, uint64_t row) {
  sqlite3_stmt* st = stmt_.get();
  const ColumnDef& col = table_->def.columns[static_cast<size_t>(table_column)];
  const int type = sqlite3_column_type(st, rc);
  if (type == SQLITE_NULL) {
    if (!col.nullable) bad_value(table_column, rc, row, "a value (the column is not nullable)");
    append_nulls(dst, 1);
    return;
  }
  switch (col.type.id) {
    case TypeId::Boolean: {
      if (type != SQLITE_INTEGER) bad_value(table_column, rc, row, "INTEGER 0 or 1");
      int64_t v = sqlite3_column_int64(st, rc);
      if (v != 0 && v != 1) bad_value(table_column, rc, row, "INTEGER 0 or 1");
      dst.append_int(v);
      return;
    }
    case TypeId::Integer: {
      if (type != SQLITE_INTEGER) bad_value(table_column, rc, row, "INTEGER");
      int64_t v = sqlite3_column_int64(st, rc);
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
        bad_value(table_column, rc, row, "a 32-bit INTEGER");
      dst.append_int(v);
      return;
    }
    case TypeId::BigInt:
      if (type != SQLITE_INTEGER) bad_value(table_column, rc, row, "INTEGER");
      dst.append_int(sqlite3_column_int64(st, rc));
      return;
    case TypeId::Double:
      if (type != SQLITE_FLOAT && type != SQLITE_INTEGER) bad_value(table_column, rc, row, "REAL or INTEGER");
      dst.append_double(sqlite3_column_double(st, rc));
      return;
    case TypeId::Decimal: {
      const int64_t unit = pow10_i64(col.type.scale);
      const int64_t bound = col.type.precision >= 18 ? std::numeric_limits<int64_t>::max() : pow10_i64(col.type.precision);
      const std::string expected = "REAL or INTEGER with at most " + std::to_string(col.type.scale) + " decimals";
      int64_t scaled = 0;
      if (type == SQLITE_INTEGER) {
        int64_t v = sqlite3_column_int64(st, rc);
        if (__builtin_mul_overflow(v, unit, &scaled) || scaled >= bound || scaled <= -bound)
          bad_value(table_column, rc, row, expected);
      } else if (type == SQLITE_FLOAT) {
        // Exactly the decimals of the declared scale: the REAL must be the double nearest such a decimal (what a
        // decimal literal written to SQLite becomes), so that pushed-down comparisons agree with the engine's.
        double v = sqlite3_column_double(st, rc);
        double s = v * static_cast<double>(unit);
        if (!std::isfinite(s) || std::fabs(s) >= static_cast<double>(bound)) bad_value(table_column, rc, row, expected);
        scaled = std::llround(s);
        if (static_cast<double>(scaled) / static_cast<double>(unit) != v) bad_value(table_column, rc, row, expected);
      } else {
        bad_value(table_column, rc, row, expected);
      }
      dst.append_int(scaled);
      return;
    }
    case TypeId::Varchar: {
      if (type != SQLITE_TEXT) bad_value(table_column, rc, row, "TEXT");
      std::string s(text_of(st, rc));
      if (!is_valid_utf8(s)) bad_value(table_column, rc, row, "UTF-8 TEXT");
      dst.append_string(std::move(s));
      return;
    }
    case TypeId::Date: {
      if (type != SQLITE_TEXT) bad_value(table_column, rc, row, "TEXT 'YYYY-MM-DD'");
      std::string_view s = text_of(st, rc);
      int64_t days;
      if (!parse_date(s, days) || format_date(days) != s) bad_value(table_column, rc, row, "TEXT 'YYYY-MM-DD'");
      dst.append_int(days);
      return;
    }
    case TypeId::Null: break;
  }
  bad_value(table_column, rc, row, "a supported type");
}

bool SqliteScanOp::next_impl(Batch& out) {
  if (done_) return false;
  if (!started_) start();
  reset_batch(out, output_types_);
  const int first = table_->has_rowid ? 1 : 0;
  size_t rows = 0;
  while (rows < kBatchSize) {
    int rc = sqlite3_step(stmt_.get());
    if (rc == SQLITE_DONE) {
      done_ = true;
      break;
    }
    if (rc == SQLITE_INTERRUPT) {
      if (check_interrupt()) throw QueryCancelled{};  // throws TIMEOUT past the deadline
    }
    if (rc != SQLITE_ROW) {
      ErrorCode code = rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB ? ErrorCode::DATA_ERROR : ErrorCode::IO_ERROR;
      throw Error(code, fmt::format("table '{}': reading SQLite table '{}' of '{}' failed: {}", table_->def.name,
                                    table_->sqlite_table, table_->path, conn_.last_error()));
    }
    ++rows_read_;
    for (size_t c = 0; c < columns_.size(); ++c)
      append(out.columns[c], columns_[c], first + static_cast<int>(c), rows_read_);
    ++rows;
  }
  out.rows = rows;
  if (done_) {  // end the read transaction and release the connection as soon as the rows are read
    stmt_.reset();
    conn_.close();
  }
  return rows > 0;
}

}  // namespace hindsight
