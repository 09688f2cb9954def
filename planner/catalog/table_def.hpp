#pragma once
#include <map>
#include <string>
#include <vector>

#include "planner/common/types.hpp"

namespace hindsight {

struct ColumnDef {
  std::string name;
  DataType type;
  bool nullable = true;
};

enum class DistributionKind : uint8_t { Hash, Replicated, Random };

/// A co-location mapping: `columns` determine the table's distribution key (for example
/// orders.o_custkey determines a tenant key the table is hashed on), so rows equal on them share a
/// bucket. Two hash tables declaring the same mapping id with equal bucket counts join co-located
/// on the determinant columns. Trusted, never checked against the data.
struct ColocationMapping {
  std::string id;
  std::vector<std::string> columns;
};

/// One table as declared in catalog.json.
struct TableDef {
  std::string name;
  std::vector<ColumnDef> columns;
  DistributionKind distribution = DistributionKind::Random;
  std::vector<std::string> distribution_columns;  ///< Hash only
  int buckets = 1;                                ///< Hash and Random; Replicated tables have 1
  std::vector<ColocationMapping> colocation;      ///< Hash only
  std::string file;                               ///< CSV path, relative to the catalog's folder
  /// Which connector reads the table (planner/storage/connector): "columnar" (CSV + .hsc, the default) or
  /// "sqlite" (then `file` is the database file and connector_options["table"] the SQLite table).
  std::string connector = "columnar";
  std::map<std::string, std::string> connector_options;  ///< the connector's own catalog fields

  int column_index(const std::string& name) const;  ///< -1 if absent (names compared case-insensitively)
};

/// All tables of one data folder.
struct Catalog {
  std::string folder;  ///< the data folder (where catalog.json lives)
  std::vector<TableDef> tables;
  /// Problems that did not stop loading (e.g. a co-location mapping naming a dropped column,
  /// which is then ignored). The CLI prints them to stderr.
  std::vector<std::string> warnings;
  const TableDef* find(const std::string& name) const;  ///< case-insensitive; nullptr if absent
};

}  // namespace hindsight
