#pragma once

#include <string>
#include <vector>

#include "mapper/plan_mapper.hpp"

namespace hindsight::mapper {

/// The schema of these type names in column order (one run per column), interned through the mapper's one path.
inline PlanMapper::SchemaId types(PlanMapper& m, const std::vector<std::string>& names) {
  std::vector<PlanMapper::TypeRun> runs;
  for (const std::string& name : names) runs.push_back({m.intern_type_name(name), 1});
  return m.intern_schema(runs);
}

}  // namespace hindsight::mapper
