#pragma once
#include "planner/storage/connector/connector.hpp"

namespace hindsight {

/// The built-in connector: CSV files loaded into bucketed columnar Tables (planner/storage), scanned by
/// TableScanOp. Its scan builder accepts every pushdown it is offered: the projection, every conjunct (the scan
/// evaluates any expression on its slices) and a limit, applied per worker instance (each worker stops after
/// that many rows; the Limit above the gather applies the query's limit and offset).
/// Distribution: the table's declared buckets (the physical planner works it out from the TableDef).
/// Loads: build() loads the projected columns of the table (Table::load_columns), charging the statement.
class ColumnarConnector : public Connector {
 public:
  const char* name() const override { return "columnar"; }
  TablePtr open_table(const std::string& folder, const TableDef& def, const LoadOptions& options,
                      LoadInfo* info) const override;
  Error missing_source(const std::string& folder, const TableDef& def, int err) const override;
  std::unique_ptr<TableScanBuilder> scan_builder(TablePtr table, LoadGuard* guard) const override;
};

}  // namespace hindsight
