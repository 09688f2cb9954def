#include "planner/storage/connector/scan_layout.hpp"

#include <fmt/format.h>

#include <functional>

#include "planner/common/error.hpp"

namespace hindsight {

int ScanLayout::position(ColumnId id) const {
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i] == id) return static_cast<int>(i);
  return -1;
}

const ColumnDef& ScanLayout::column(ColumnId id) const {
  int p = position(id);
  HS_ASSERT(p >= 0, fmt::format("column #{} is not an output of the scan of '{}'", id, table->def.name));
  return table->def.columns.at(static_cast<size_t>(columns.at(static_cast<size_t>(p))));
}

std::string ScanLayout::render(const Expr& e) const {
  std::function<std::string(ColumnId)> name_of = [this](ColumnId id) {
    int p = position(id);
    return p < 0 ? fmt::format("#{}", id) : table->def.columns.at(static_cast<size_t>(columns[static_cast<size_t>(p)])).name;
  };
  return e.to_string(&name_of);
}

ExprPtr ScanLayout::resolve(const Expr& e) const {
  ExprPtr out = e.clone();
  std::function<void(Expr&)> walk = [&](Expr& x) {
    if (x.kind == ExprKind::ColumnRef) {
      x.index = position(x.column_id);
      HS_ASSERT(x.index >= 0, fmt::format("column #{} is not an output of the scan of '{}'", x.column_id, table->def.name));
    }
    for (auto& c : x.children) walk(*c);
  };
  walk(*out);
  return out;
}

std::string ScanLayout::projection_text() const {
  return fmt::format("project({} of {})", columns.size(), table->def.columns.size());
}

}  // namespace hindsight
