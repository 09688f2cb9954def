#include "planner/storage/connector/sqlite_connector.hpp"

#include <fmt/format.h>

#include <cstring>

#include "planner/storage/connector/scan_layout.hpp"
#include "planner/storage/connector/sqlite_pushdown.hpp"
#include "planner/storage/connector/sqlite_scan_op.hpp"
#include "planner/storage/connector/sqlite_table.hpp"
#include "planner/logical/logical_operator.hpp"

namespace hindsight {

namespace {

class SqliteScanSource : public ScanSource {
 public:
  SqliteScanSource(std::shared_ptr<const SqliteTable> table, std::vector<int> columns, std::string sql,
                   std::vector<SqlParam> params, int64_t limit, std::string pushdown)
      : table_(std::move(table)),
        columns_(std::move(columns)),
        sql_(std::move(sql)),
        params_(std::move(params)),
        limit_(limit),
        pushdown_(std::move(pushdown)) {}

  const char* connector() const override { return "sqlite"; }
  std::optional<Distribution> distribution() const override { return Distribution::single(); }
  int64_t limit() const override { return limit_; }
  void write_params(ParamWriter& w) const override {
    w.text("connector", "sqlite");
    if (limit_ >= 0) w.number("limit", limit_);
    w.display("pushdown", pushdown_);
    w.display("sql", sql_);
  }
  std::unique_ptr<ExecOperator> make_operator(ExecContext* ctx, int worker) const override {
    return std::make_unique<SqliteScanOp>(ctx, worker, table_, columns_, sql_, params_);
  }

 private:
  std::shared_ptr<const SqliteTable> table_;
  std::vector<int> columns_;
  std::string sql_;
  std::vector<SqlParam> params_;
  int64_t limit_;
  std::string pushdown_;
};

class SqliteScanBuilder : public TableScanBuilder {
 public:
  explicit SqliteScanBuilder(std::shared_ptr<const SqliteTable> table) : table_(std::move(table)) {
    layout_.table = table_;
  }

  bool offer_projection(const std::vector<int>& columns, const std::vector<ColumnId>& outputs) override {
    layout_.columns = columns;
    layout_.outputs = outputs;
    return true;
  }
  bool offer_filter(const Expr& conjunct) override {
    auto term = translate_sqlite_conjunct(conjunct, layout_, *table_);
    if (!term) return false;
    terms_.push_back(std::move(*term));
    accepted_.push_back(conjunct.clone());
    return true;
  }
  // The WHERE clause names the columns it reads: the SELECT list leaves out those only it reads.
  bool offer_filter_only(size_t n) override {
    if (n > layout_.columns.size()) return false;
    filter_only_ = n;
    return true;
  }
  bool offer_limit(int64_t limit) override {
    if (limit < 0) return false;
    limit_ = limit;
    return true;
  }
  std::vector<std::string> accepted_pushdowns() const override {
    std::vector<std::string> out;
    if (!accepted_.empty()) out.push_back("filter(" + layout_.render(*make_conjunction(accepted_)) + ")");
    out.push_back(layout_.projection_text());
    if (limit_ >= 0) out.push_back(fmt::format("limit {}", limit_));
    return out;
  }
  ScanSourcePtr build() override {
    // SELECT [rowid,] "c1", "c2" FROM "t" [WHERE term AND term] [LIMIT ?]: every name quoted, every value bound.
    std::string sql = "SELECT ";
    std::vector<std::string> items;
    if (table_->has_rowid) items.push_back("rowid");
    const std::vector<int> produced(layout_.columns.begin(), layout_.columns.end() - static_cast<std::ptrdiff_t>(filter_only_));
    for (int c : produced)
      items.push_back(quote_sqlite_identifier(table_->sqlite_columns.at(static_cast<size_t>(c))));
    if (items.empty()) items.push_back("NULL");
    for (size_t i = 0; i < items.size(); ++i) sql += (i ? ", " : "") + items[i];
    sql += " FROM " + quote_sqlite_identifier(table_->sqlite_table);
    std::vector<SqlParam> params;
    for (size_t i = 0; i < terms_.size(); ++i) {
      sql += (i ? " AND " : " WHERE ") + terms_[i].sql;
      for (auto& p : terms_[i].params) params.push_back(p);
    }
    if (limit_ >= 0) {
      sql += " LIMIT ?";
      params.push_back(SqlParam::integer(limit_));
    }
    return std::make_shared<SqliteScanSource>(table_, produced, std::move(sql), std::move(params), limit_,
                                              join_pushdowns(accepted_pushdowns()));
  }

 private:
  std::shared_ptr<const SqliteTable> table_;
  ScanLayout layout_;
  std::vector<SqliteTerm> terms_;
  std::vector<ExprPtr> accepted_;
  size_t filter_only_ = 0;  ///< the last filter_only_ offered columns are read by the WHERE clause only
  int64_t limit_ = -1;
};

}  // namespace

TablePtr SqliteConnector::open_table(const std::string& folder, const TableDef& def, const LoadOptions& options,
                                     LoadInfo* info) const {
  return open_sqlite_table(folder, def, info);
}

Error SqliteConnector::missing_source(const std::string& folder, const TableDef& def, int err) const {
  return Error(ErrorCode::DATA_ERROR, fmt::format("{}: table '{}' sqlite.file: cannot open '{}': {}",
                                                  catalog_path_of(folder), def.name, table_source_path(folder, def),
                                                  std::strerror(err)));
}

std::unique_ptr<TableScanBuilder> SqliteConnector::scan_builder(TablePtr table, LoadGuard* /*guard*/) const {
  // Tables of connector "sqlite" are opened by open_table above, always as SqliteTables (Table is not
  // polymorphic: the definition says which it is).
  HS_ASSERT(table && table->def.connector == "sqlite", "SQLite scan of a table the SQLite connector did not open");
  auto sqlite = std::static_pointer_cast<const SqliteTable>(std::move(table));
  return std::make_unique<SqliteScanBuilder>(std::move(sqlite));
}

}  // namespace hindsight
