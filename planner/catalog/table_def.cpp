#include "planner/catalog/table_def.hpp"

#include <cctype>

namespace hindsight {

static bool iequals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

int TableDef::column_index(const std::string& col) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (iequals(columns[i].name, col)) return static_cast<int>(i);
  return -1;
}

const TableDef* Catalog::find(const std::string& table) const {
  for (const auto& t : tables)
    if (iequals(t.name, table)) return &t;
  return nullptr;
}

}  // namespace hindsight
