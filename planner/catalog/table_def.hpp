#pragma once
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

/// One table as declared in catalog.json.
struct TableDef {
  std::string name;
  std::vector<ColumnDef> columns;
  DistributionKind distribution = DistributionKind::Random;
  std::vector<std::string> distribution_columns;  ///< Hash only
  int buckets = 1;                                ///< Hash and Random; Replicated tables have 1
  std::string file;                               ///< CSV path, relative to the catalog's folder

  int column_index(const std::string& name) const;  ///< -1 if absent (names compared case-insensitively)
};

/// All tables of one data folder.
struct Catalog {
  std::string folder;  ///< the data folder (where catalog.json lives)
  std::vector<TableDef> tables;
  const TableDef* find(const std::string& name) const;  ///< case-insensitive; nullptr if absent
};

}  // namespace hindsight
