#pragma once
// The ways a hash join's inputs can meet on the workers, priced: one definition shared by the
// physical planner (which takes the cheapest, or the one the join order asked for) and the join
// enumerator (which keeps, per relation set, the cheapest plan for each distribution it delivers).
#include <vector>

#include "planner/logical/logical_operator.hpp"
#include "planner/physical/distribution.hpp"
#include "planner/physical/physical_cost.hpp"
#include "planner/physical/physical_operator.hpp"

namespace hindsight {

/// What a join needs to know about its inputs to choose how they meet. Probe and build as the
/// physical planner has them (build = the materialised side).
struct JoinSides {
  JoinType type = JoinType::Inner;
  const Distribution* probe = nullptr;
  const Distribution* build = nullptr;
  const std::vector<ColumnId>* probe_keys = nullptr;  ///< equi-join keys, non-empty
  const std::vector<ColumnId>* build_keys = nullptr;
  double probe_rows = 0, build_rows = 0, out_rows = 0;
  double probe_width = 0, build_width = 0;  ///< row_width of each side
  bool build_fits_broadcast = false;        ///< broadcast_fits(build)
};

/// One way: what it costs (the exchanges it adds plus the join, physical_cost formulas) and the
/// distribution of the join's output.
struct JoinWayOption {
  JoinWay way = JoinWay::Chosen;
  double cost = 0;
  Distribution out;
};

/// Every way the cost-based planner may take for these sides. A forced way (both sides single,
/// a single probe side, a replicated build side, co-located sides) is returned alone; otherwise
/// broadcast (when allowed), to-probe, to-build (when that side is hashed on some of the keys)
/// and both. NOT IN and a single build side only broadcast. FULL OUTER never broadcasts.
std::vector<JoinWayOption> join_way_options(const JoinSides& s, const CostModelOptions& o);

/// The broadcast budget rule: every worker holds a copy, and the copies together must stay under
/// `share` of the memory budget.
bool broadcast_fits(double build_rows, double build_width, int workers, int64_t memory_limit, double share);

/// The distribution a scan of `def` reading table columns `columns` (as `outputs`) delivers from
/// the catalog: hashed on its key columns (when read) and co-location mappings, replicated or any.
Distribution scan_distribution(const TableDef& def, const std::vector<int>& columns, const std::vector<ColumnId>& outputs);

/// A hashed distribution seen through a projection: key and mapping columns renamed to the
/// projection's pass-through outputs; a key the projection drops loses what it described.
Distribution project_distribution(const LogicalProject& p, const Distribution& in);

/// The column under casts that keep int64 values unchanged (INTEGER <-> BIGINT, DATE, DECIMAL scale kept): such
/// keys hash and compare alike, so the column can serve as the hash key. nullptr when the key is computed.
const Expr* hash_key_column(const Expr& e);

/// Key positions (into `keys`) of the columns `cols`, when all of them are keys.
bool key_positions(const std::vector<ColumnId>& cols, const std::vector<ColumnId>& keys, std::vector<size_t>& out);

}  // namespace hindsight
