#include "planner/storage/connector/columnar_connector.hpp"

#include <fmt/format.h>

#include <cstring>

#include "planner/storage/connector/scan_layout.hpp"
#include "planner/exec/operators/table_scan.hpp"
#include "planner/logical/logical_operator.hpp"

namespace hindsight {

namespace {

class ColumnarScanSource : public ScanSource {
 public:
  ColumnarScanSource(ScanLayout layout, size_t produced, ExprPtr filter, int64_t limit, std::string pushdown)
      : layout_(std::move(layout)),
        produced_(produced),
        filter_(std::move(filter)),
        limit_(limit),
        pushdown_(std::move(pushdown)) {}

  const char* connector() const override { return "columnar"; }
  std::optional<Distribution> distribution() const override { return std::nullopt; }  // the table's buckets
  int64_t limit() const override { return limit_; }
  void write_params(ParamWriter& w) const override {
    if (limit_ >= 0) w.number("limit", limit_);
    w.display("pushdown", pushdown_);
  }
  std::unique_ptr<ExecOperator> make_operator(ExecContext* ctx, int worker) const override {
    return std::make_unique<TableScanOp>(ctx, worker, layout_.table, layout_.columns,
                                         filter_ ? filter_->clone() : nullptr, limit_, produced_);
  }

 private:
  ScanLayout layout_;
  size_t produced_;  ///< the scan's outputs: the first produced_ columns of the layout (the rest feed the filter)
  ExprPtr filter_;   ///< over the layout's positions
  int64_t limit_;
  std::string pushdown_;
};

class ColumnarScanBuilder : public TableScanBuilder {
 public:
  ColumnarScanBuilder(TablePtr table, LoadGuard* guard) : guard_(guard) { layout_.table = std::move(table); }

  bool offer_projection(const std::vector<int>& columns, const std::vector<ColumnId>& outputs) override {
    layout_.columns = columns;
    layout_.outputs = outputs;
    return true;
  }
  bool offer_filter(const Expr& conjunct) override {
    filters_.push_back(conjunct.clone());
    return true;
  }
  bool offer_filter_only(size_t n) override {
    if (n > layout_.columns.size() || filters_.empty()) return false;
    filter_only_ = n;
    return true;
  }
  bool offer_limit(int64_t limit) override {
    limit_ = limit;
    return true;
  }
  std::vector<std::string> accepted_pushdowns() const override {
    std::vector<std::string> out;
    if (!filters_.empty()) out.push_back("filter(" + layout_.render(*make_conjunction(filters_)) + ")");
    out.push_back(layout_.projection_text());
    if (limit_ >= 0) out.push_back(fmt::format("limit {} per worker", limit_));
    return out;
  }
  ScanSourcePtr build() override {
    // The columns this scan reads, and no others, are loaded now (charged to the statement being planned).
    layout_.table->load_columns(layout_.columns, guard_);
    ExprPtr filter = filters_.empty() ? nullptr : layout_.resolve(*make_conjunction(filters_));
    return std::make_shared<ColumnarScanSource>(layout_, layout_.columns.size() - filter_only_, std::move(filter), limit_,
                                                join_pushdowns(accepted_pushdowns()));
  }

 private:
  ScanLayout layout_;
  std::vector<ExprPtr> filters_;
  size_t filter_only_ = 0;  ///< the last filter_only_ columns of the layout are read by the filter only
  int64_t limit_ = -1;
  LoadGuard* guard_;
};

}  // namespace

TablePtr ColumnarConnector::open_table(const std::string& folder, const TableDef& def, const LoadOptions& options,
                                       LoadInfo* info) const {
  return load_table(folder, def, options, info);
}

Error ColumnarConnector::missing_source(const std::string& folder, const TableDef& def, int err) const {
  return Error(ErrorCode::IO_ERROR, fmt::format("cannot open '{}' (table '{}'): {}", table_source_path(folder, def),
                                                def.name, std::strerror(err)));
}

std::unique_ptr<TableScanBuilder> ColumnarConnector::scan_builder(TablePtr table, LoadGuard* guard) const {
  return std::make_unique<ColumnarScanBuilder>(std::move(table), guard);
}

}  // namespace hindsight
