#pragma once
#include <string>
#include <vector>

#include "planner/common/types.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight {

/// Where a column's values come from: a base table column, or an expression computed in the plan.
struct ColumnInfo {
  std::string name;         ///< output name (alias or derived text); never part of a signature
  DataType type;
  std::string base_table;   ///< lineage: set for columns read from a table
  std::string base_column;
};

using NodeId = uint32_t;

/// Per-query registry of columns and node ids, shared by the logical and physical plans.
class PlanContext {
 public:
  ColumnId add_column(ColumnInfo info) {
    types_.push_back(info.type);
    columns_.push_back(std::move(info));
    return static_cast<ColumnId>(columns_.size() - 1);
  }
  const ColumnInfo& column(ColumnId id) const { return columns_.at(id); }
  /// column(id).type, from a dense array of types (passes over many columns' types touch a few
  /// cache lines instead of every column's record). Columns never change once added.
  const DataType& column_type(ColumnId id) const { return types_.at(id); }
  size_t column_count() const { return columns_.size(); }
  NodeId next_node_id() { return next_node_++; }
  /// Every node id given out so far is below this.
  NodeId node_id_bound() const { return next_node_; }
  /// "table.column" for base columns, else the column's name.
  std::string display_name(ColumnId id) const;

 private:
  std::vector<ColumnInfo> columns_;
  std::vector<DataType> types_;  // types_[id] == columns_[id].type
  NodeId next_node_ = 1;
};

}  // namespace hindsight
