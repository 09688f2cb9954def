#pragma once
#include <memory>
#include <string>

#include "planner/common/error.hpp"
#include "planner/storage/connector/table_scan_builder.hpp"
#include "planner/storage/table.hpp"
#include "planner/storage/table_loader.hpp"

namespace hindsight {

/// A source of tables named in catalog.json by `"connector": "<name>"` (TableDef::connector). It opens a declared
/// table (validating the declaration against the source, counting its rows for estimates) and gives the planner a
/// TableScanBuilder for each scan of it. Stateless and shared: one instance per name for the whole process.
class Connector {
 public:
  virtual ~Connector() = default;
  virtual const char* name() const = 0;
  /// Opens table `def` of the catalog in `folder`: sets def, row_count and data_version (buckets only for
  /// columnar tables). Throws DATA_ERROR / IO_ERROR naming the table (and for connector tables the catalog field).
  virtual TablePtr open_table(const std::string& folder, const TableDef& def, const LoadOptions& options,
                              LoadInfo* info) const = 0;
  /// The error for a source file that does not exist (`err` is errno of the failed stat).
  virtual Error missing_source(const std::string& folder, const TableDef& def, int err) const = 0;
  /// A builder for one scan of `table` (opened by this connector). `guard` (may be null): the limits of the
  /// statement being planned, charged for what the scan's build() loads.
  virtual std::unique_ptr<TableScanBuilder> scan_builder(TablePtr table, LoadGuard* guard) const = 0;
};

/// The connector of `def` (by TableDef::connector, case-insensitive). Throws BIND_ERROR for an unknown name.
const Connector& connector_for(const TableDef& def);
/// The connector registered under `name`, or nullptr.
const Connector* find_connector(const std::string& name);
/// Registers another connector (tests, extensions); replaces one of the same name. Not thread-safe against
/// concurrent lookups: register before planning.
void register_connector(std::shared_ptr<const Connector> connector);

/// "<folder>/catalog.json", the catalog file named in connector errors.
std::string catalog_path_of(const std::string& folder);

}  // namespace hindsight
