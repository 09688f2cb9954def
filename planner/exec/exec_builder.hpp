#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "planner/exec/cte_buffer.hpp"
#include "planner/exec/exchange.hpp"
#include "planner/exec/fragment_scheduler.hpp"
#include "planner/physical/physical_operator.hpp"

namespace hindsight {

/// One executable operator of the plan (the same on every worker), and the physical node it runs.
struct ExecNodeInfo {
  int exec_id;
  NodeId physical_id;
  std::string role;  ///< "HashJoinBuild", "HashJoinProbe", "ExchangeSink", ...
};

/// The executable form of a physical plan: fragments between exchanges, ready for the scheduler.
/// A physical operator may become several executable ones (hash join: build + probe; exchange:
/// sink + source). The physical plan must outlive the fragments (they read it when instantiated).
struct ExecPlan {
  std::vector<Fragment> fragments;
  int root_fragment = 0;
  std::vector<ExecNodeInfo> nodes;  ///< indexed by exec_id
  std::map<NodeId, std::vector<int>> exec_ids_of;  ///< physical id -> its exec ids
  std::vector<std::shared_ptr<ExchangeBuffer>> buffers;
  std::vector<std::shared_ptr<CteBuffer>> cte_buffers;  ///< one per materialized CTE
  std::vector<int> cte_fragments;                       ///< the fragment producing each CTE
  std::shared_ptr<void> builder;  ///< owns the state the fragments' factories read
};

/// Cuts the physical plan at its exchanges and prepares per-worker instantiation: column ids are
/// resolved to positions, expressions bound to their input layouts.
/// `ctes[i]` is the physical plan of materialized CTE i (read by PhysicalCteScan nodes).
std::unique_ptr<ExecPlan> build_exec_plan(const PhysicalOperator& root, const PlanContext& ctx, ExecContext* exec_ctx,
                                          const std::vector<const PhysicalOperator*>& ctes = {});

}  // namespace hindsight
