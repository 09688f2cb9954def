#pragma once
#include "planner/storage/connector/connector.hpp"

namespace hindsight {

/// Tables of SQLite database files: {"name": "supplier_sql", "connector": "sqlite",
/// "sqlite": {"file": "suppliers.db", "table": "supplier"}, "columns": [...]}. The declaration is validated when
/// the table is opened (planner/storage/connector/sqlite_table.hpp); a scan runs one read-only SQLite query built by its
/// scan builder from the pushdowns it accepted: the projection (column list), conjuncts whose SQLite semantics
/// equal the engine's (planner/storage/connector/sqlite_pushdown.hpp) and a LIMIT. Identifiers are quoted and values bound,
/// never spliced. A SQLite table is one stream (Distribution::single()), read by worker 0.
class SqliteConnector : public Connector {
 public:
  const char* name() const override { return "sqlite"; }
  TablePtr open_table(const std::string& folder, const TableDef& def, const LoadOptions& options,
                      LoadInfo* info) const override;
  Error missing_source(const std::string& folder, const TableDef& def, int err) const override;
  std::unique_ptr<TableScanBuilder> scan_builder(TablePtr table, LoadGuard* guard) const override;
};

}  // namespace hindsight
