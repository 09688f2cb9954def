#pragma once
#include "planner/rewrite/rewrite_rule.hpp"

namespace hindsight {

/// Restricts a grouped aggregate joined back to an outer query ("magic set"): a decorrelated scalar
/// subquery (`l_quantity < (SELECT avg(...) FROM lineitem WHERE l_partkey = p_partkey)`) becomes a
/// join of the outer side with an aggregate grouped by the correlation column over all of its input.
/// When the outer column `o` of an equality `o = k` (k a grouping column) is produced by a filtered
/// table scan, only the groups whose key that filtered scan produces can ever match; a semi join of
/// the aggregate's input with a copy of that scan (fresh columns, same filters) on the same condition
/// keeps just their rows. Applies to inner, left and semi joins with the aggregate on the right, where
/// the aggregate's rows are not preserved; the copy reads the scan's key column and filter columns.
/// Also when o is restricted by a semi join `o = r` above the join (TPC-H Q20's `ps_partkey IN (SELECT p_partkey
/// ...)`), on a path every row takes with o unchanged: the aggregate's input is semi-joined with a copy of the
/// semi join's subquery (Project / Filter over a Get) on k = r (try_semi).
class MagicSetKeys : public RewriteRule {
 public:
  const char* name() const override { return "magic_set_keys"; }
  bool apply(LogicalPtr& plan, RewriteContext& ctx) override;
};

}  // namespace hindsight
