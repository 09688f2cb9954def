#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "planner/session/plan_mapping.hpp"
#include "planner/session/query_pipeline.hpp"

namespace hindsight {

/// EXPLAIN as text: the physical plan as an indented tree, one operator a line with its
/// parameters, estimated rows and (with a run) actual rows, the q-error and time.
/// With a mapping, each line also shows the node's signature (short hex) and group.
std::string explain_text(const CompiledQuery& cq, const ExecutedQuery* run, const QueryMapping* mapping = nullptr);

/// EXPLAIN as JSON (DESIGN.md section 8): {"logical": NODE, "physical": NODE}.
nlohmann::json explain_json(const CompiledQuery& cq, const ExecutedQuery* run, const QueryMapping* mapping = nullptr);

/// A stable hash of the physical plan's shape and parameters (hex), to tell whether two
/// attempts ran the same plan.
std::string plan_hash(const CompiledQuery& cq);

}  // namespace hindsight
