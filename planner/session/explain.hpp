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

/// max(est/act, act/est), rows floored at 1: the q-error EXPLAIN ANALYZE shows (DESIGN.md section 8).
double q_error(double estimated, double actual);

/// The worst-estimated node of a run: the largest q-error over the physical nodes (CTEs included)
/// that ran. A node cut short (LIMIT early exit) counts only when its lower bound already exceeds
/// the estimate (its q-error is then a lower bound too). `node` is null when nothing ran.
struct WorstQError {
  double q_error = 1;
  const PhysicalOperator* node = nullptr;
  double estimated_rows = 0;
  uint64_t actual_rows = 0;
  bool complete = true;
};
WorstQError worst_q_error(const CompiledQuery& cq, const ExecutedQuery& run);

/// Work, a measure of what a run did that does not rest on a timer: the actual output rows of every physical
/// operator that ran (CTEs included) plus the bytes its exchanges moved, weighted as the cost model weighs them
/// (CostModelOptions::network_byte_weight). An exchange's bytes are its actual rows times the bytes per row its
/// cost priced, so the same plan over the same data gives the same work in every run (bench/plan_quality.py
/// measures the same figure from EXPLAIN ANALYZE JSON). `incomplete` counts operators cut short (their rows are
/// lower bounds).
struct PlanWork {
  double work = 0;
  double rows = 0;
  double exchange_bytes = 0;
  int incomplete = 0;
};
PlanWork plan_work(const CompiledQuery& cq, const ExecutedQuery& run);

/// A stable hash of the physical plan's shape and parameters (hex), to tell whether two
/// attempts ran the same plan.
std::string plan_hash(const CompiledQuery& cq);

}  // namespace hindsight
