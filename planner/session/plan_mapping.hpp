#pragma once
#include <map>
#include <memory>

#include "mapper/plan_mapper.hpp"
#include "planner/session/query_pipeline.hpp"
#include "planner/signing/plan_signer.hpp"

namespace hindsight {

/// The equivalence groups of one compiled query: AST nodes, logical operators (and those rewrites
/// replaced), physical operators, executable operators and signatures, linked stage by stage
/// (bind, rewrite:<rule>, physical, exec, signature). With a run, the rows each operator
/// produced are attached as stats records (cut-short operators as lower bounds).
struct QueryMapping {
  mapper::PlanMapper mapper;
  std::map<NodeId, mapper::EntityId> logical, physical;
  std::map<int, mapper::EntityId> ast, exec;

  std::optional<mapper::GroupId> group_of_logical(NodeId id) const;
  std::optional<mapper::GroupId> group_of_physical(NodeId id) const;
};

/// Builds the mapping. Throws INTERNAL for a refused link when settings.mapper_strict is set;
/// otherwise refused links are recorded and the query goes on.
/// `detailed_labels` adds each operator's parameters to its label (for people: groups, EXPLAIN);
/// without it labels are "Kind #id" and the mapping stays cheap on the planning path.
std::unique_ptr<QueryMapping> map_query(const CompiledQuery& cq, const ExecutedQuery* run, const Settings& settings,
                                        bool detailed_labels = true);

}  // namespace hindsight
