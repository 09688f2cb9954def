#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "mapper/plan_mapper.hpp"

namespace hindsight::mapper {

/// The `groups --format json` contract (DESIGN.md section 8):
/// `{"groups": [{"id", "members": [{"kind", "id", "label"}]}], "refused_links": [{"a", "b", "stage", "reason"}]}`.
/// Each group also carries additive fields: "stages" (distinct link stages, first use first), "schema" (column type
/// names, [] = unknown) and "stats" ({"rows", "complete", "source"} of group_stats, or null).
nlohmann::json to_json(const PlanMapper& mapper, bool only_multi_member_groups = false);

/// Graphviz DOT: entities as nodes coloured by kind, accepted links as edges labelled by stage, refused links as
/// dashed red edges, every multi-member group as a `subgraph cluster_<group id>`.
std::string to_dot(const PlanMapper& mapper);

/// Readable text: one block per group, "group 3 (5 members; stages: bind, physical, signature)" then one line per
/// member "  logical    #12  Join inner [...]"; then the refused links.
std::string to_text(const PlanMapper& mapper, bool only_multi_member_groups = false);

}  // namespace hindsight::mapper
