#include "planner/optimizer/cost_based_join_order.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"
#include "planner/optimizer/join_order/best_join_order.hpp"
#include "planner/optimizer/join_order/cost_model.hpp"
#include "planner/physical/aggregate_ways.hpp"
#include "planner/physical/join_ways.hpp"
#include "planner/signing/plan_signer.hpp"

namespace hindsight {

namespace {

bool is_inner_join(const LogicalOperator& op) {
  return op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Inner;
}

bool is_semi_like(const LogicalOperator& op) {
  if (op.kind != LogicalKind::Join) return false;
  const LogicalJoinType t = op.as<LogicalJoin>().type;
  return t == LogicalJoinType::Semi || t == LogicalJoinType::Anti || t == LogicalJoinType::NullAwareAnti ||
         t == LogicalJoinType::Left;
}

/// A join the enumerator takes apart, met under the region's conditions above it that read `read_above`: an inner
/// join, a semi, anti or null-aware anti join whose conditions read its left side (one that reads only its right
/// side, or nothing, stays a barrier: it has no place to be pushed to), or a LEFT join whose conditions read its
/// left side and whose null-producing side no condition above reads (is_region_member_join).
bool is_region_join(const LogicalOperator& op, const std::set<ColumnId>& read_above) {
  return is_inner_join(op) || is_region_member_join(op, read_above);
}

/// Whether the region under `op` holds a LEFT join that may be a member: only then do the columns read above matter
/// (read_below), which spares every other region the sets of columns.
bool region_has_left_join(const LogicalOperator& op) {
  if (is_inner_join(op)) return region_has_left_join(*op.children[0]) || region_has_left_join(*op.children[1]);
  if (is_left_member_join(op)) return true;
  return is_semi_member_join(op) && region_has_left_join(*op.children[0]);
}

/// The columns read above `op`'s children in the region: `read_above` and its own conditions' (none tracked when
/// the region has no LEFT join: `track`).
std::set<ColumnId> read_below(const LogicalOperator& op, const std::set<ColumnId>& read_above, bool track) {
  if (!track) return {};
  std::set<ColumnId> cols = read_above;
  add_condition_columns(op, cols);
  return cols;
}

/// What the enumerator sees of a region: relations (inner-join inputs and members) and inner joins.
struct RegionSize {
  size_t relations = 0;
  size_t inner_joins = 0;
};

void measure(const LogicalOperator& op, const std::set<ColumnId>& read_above, bool track, RegionSize& size) {
  if (is_inner_join(op)) {
    ++size.inner_joins;
    const std::set<ColumnId> cols = read_below(op, read_above, track);
    measure(*op.children[0], cols, track, size);
    measure(*op.children[1], cols, track, size);
  } else if (is_region_join(op, read_above)) {
    ++size.relations;  // the right input: one member
    measure(*op.children[0], read_below(op, read_above, track), track, size);
  } else {
    ++size.relations;
  }
}

/// A semi, anti, null-aware anti or LEFT join of a region: the written join node (no children; its type,
/// conditions and id are kept) and its right input, one atomic relation of the graph.
struct SemiMember {
  LogicalPtr join;
  LogicalPtr right;
  double left_rows = 0;  // a LEFT member: the estimate of the written join's left input (left_join_fanout)
  bool left_join() const { return join->as<LogicalJoin>().type == LogicalJoinType::Left; }
};

PlanSigner::SemiMemberRef semi_member_ref(const SemiMember& m) {
  const auto& j = m.join->as<LogicalJoin>();
  return PlanSigner::SemiMemberRef{j.type, &j.conditions, m.right.get()};
}

struct Region {
  std::vector<LogicalPtr> leaves;  // inputs of the inner joins, graph relations 0..n-1
  std::vector<ExprPtr> conds;      // conditions of the inner joins
  std::vector<NodeId> ids;         // ids of the inner joins
  std::vector<SemiMember> semis;   // graph relations n.., outermost first
};

void flatten(LogicalPtr& node, const std::set<ColumnId>& read_above, bool track, CardinalityModel& model, Region& r) {
  if (is_inner_join(*node)) {
    const std::set<ColumnId> cols = read_below(*node, read_above, track);
    r.ids.push_back(node->id);
    for (auto& c : node->as<LogicalJoin>().conditions) r.conds.push_back(std::move(c));
    flatten(node->children[0], cols, track, model, r);
    flatten(node->children[1], cols, track, model, r);
    return;
  }
  if (is_region_join(*node, read_above)) {
    const std::set<ColumnId> cols = read_below(*node, read_above, track);
    SemiMember m;
    if (node->as<LogicalJoin>().type == LogicalJoinType::Left) m.left_rows = model.estimate(*node->children[0]);
    LogicalPtr left = std::move(node->children[0]);
    m.right = std::move(node->children[1]);
    node->children.clear();
    m.join = std::move(node);
    r.semis.push_back(std::move(m));
    flatten(left, cols, track, model, r);
    return;
  }
  r.leaves.push_back(std::move(node));
}

std::string shape(const LogicalOperator& op) {
  if (!is_inner_join(op) && !is_semi_like(op)) return std::to_string(op.id);
  return "(" + shape(*op.children[0]) + " " + shape(*op.children[1]) + ")";
}

/// The distribution a leaf of a region delivers, as the physical planner will plan it: a scan's from the catalog,
/// through filters and pass-through projections; anything else is taken as spread in no known way (the physical
/// planner then checks each way against what the input really delivers).
Distribution logical_distribution(const LogicalOperator& op) {
  switch (op.kind) {
    case LogicalKind::Get: {
      const auto& g = op.as<LogicalGet>();
      return scan_distribution(g.table, g.columns, g.outputs);
    }
    case LogicalKind::Filter: return logical_distribution(*op.children[0]);
    case LogicalKind::Project: {
      Distribution d = logical_distribution(*op.children[0]);
      return d.kind == StreamDistribution::Hashed ? project_distribution(op.as<LogicalProject>(), d) : d;
    }
    default: return Distribution::any();
  }
}

bool same_distribution(const Distribution& a, const Distribution& b) {
  if (a.kind != b.kind || a.columns != b.columns || a.buckets != b.buckets || a.mapped.size() != b.mapped.size())
    return false;
  for (size_t i = 0; i < a.mapped.size(); ++i)
    if (a.mapped[i].mapping != b.mapped[i].mapping || a.mapped[i].columns != b.mapped[i].columns) return false;
  return true;
}

/// The column the physical planner hashes a key on (hash_key_column, join_ways.hpp). kInvalidColumn when the key is
/// computed (the physical planner then computes it into a new column no other join knows).
ColumnId join_key_column(const Expr& e) {
  const Expr* k = hash_key_column(e);
  return k ? k->column_id : kInvalidColumn;
}

/// An equality between two sides, each reading the relations `*_rels` (bit sets over the region's inputs).
struct EquiKey {
  bool valid = false;
  joinorder::RelSet a_rels = 0, b_rels = 0;
  ColumnId a = kInvalidColumn, b = kInvalidColumn;
};

/// The aggregate a region sits under, directly or through filters and pass-through projections, as the region sees
/// it: its group keys traced to the region's columns (a computed key, or one a projection does not pass through as
/// project_distribution renames it, is left out: a distribution hashed on a subset of the rest is hashed on a
/// subset of the groups) and its figures for aggregate_cost (the estimates made before the reordering).
struct AggregateAbove {
  std::vector<ColumnId> groups;  ///< non-empty
  bool distinct = false;
  AggregateCostInputs costs;
};

/// `above` seen through `op` (a filter or projection between the aggregate and what is below `op`); nullopt when
/// no group key is left.
std::optional<AggregateAbove> trace_below(const LogicalOperator& op, const AggregateAbove& above) {
  if (op.kind == LogicalKind::Filter) return above;
  if (op.kind != LogicalKind::Project) return std::nullopt;
  const auto& p = op.as<LogicalProject>();
  AggregateAbove below = above;
  below.groups.clear();
  // Input column x counts when the output project_distribution renames it to (the first that passes it through)
  // is a group key.
  for (size_t i = 0; i < p.exprs.size(); ++i) {
    if (p.exprs[i]->kind != ExprKind::ColumnRef) continue;
    const ColumnId x = p.exprs[i]->column_id;
    size_t first = 0;
    while (!(p.exprs[first]->kind == ExprKind::ColumnRef && p.exprs[first]->column_id == x)) ++first;
    if (first != i) continue;
    if (std::find(above.groups.begin(), above.groups.end(), p.outputs[i]) != above.groups.end())
      below.groups.push_back(x);
  }
  if (below.groups.empty()) return std::nullopt;
  return below;
}

/// What the children of `op` see above them: an aggregate's group keys (at workers > 1, with estimates), or the ones
/// `above` holds traced through a filter or projection; nullopt otherwise.
std::optional<AggregateAbove> aggregate_above_children(const LogicalOperator& op, const AggregateAbove* above,
                                                       const PlanContext& ctx, int workers) {
  if (workers <= 1) return std::nullopt;
  if (op.kind == LogicalKind::Aggregate) {
    const auto& a = op.as<LogicalAggregate>();
    const LogicalOperator& in = *op.children[0];
    if (a.groups.empty() || op.estimated_rows < 0 || in.estimated_rows < 0) return std::nullopt;
    AggregateAbove agg;
    agg.groups = a.groups;
    for (const AggregateCall& c : a.aggs) agg.distinct |= c.distinct;
    agg.costs.input_rows = in.estimated_rows;
    agg.costs.out_rows = op.estimated_rows;
    agg.costs.input_width = row_width(in.outputs, ctx);
    agg.costs.partial_width = partial_aggregate_width(a, ctx);
    agg.costs.out_width = row_width(op.outputs, ctx);
    return agg;
  }
  if (above == nullptr) return std::nullopt;
  return trace_below(op, *above);
}

/// Interesting properties for a region at workers > 1: the distribution of each plan over the workers. Properties
/// are interned distributions; those hashed on join-key columns of the region (or replicated, or single) each keep
/// their cheapest plan, all others share one klass (no later join can use them).
class DistributionModel final : public joinorder::PropertyModel {
 public:
  DistributionModel(const joinorder::QueryGraph& graph, const PhysicalPlannerOptions& physical, const PlanContext& ctx)
      : graph_(graph), share_(physical.broadcast_share()) {
    costs_.workers = physical.workers;
    costs_.memory_limit = physical.memory_limit;
    costs_.spill = physical.spill;
    (void)ctx;
    max_plans = 4;
  }

  /// The aggregate above the region: its group keys are interesting too (a plan hashed on a subset of them keeps
  /// its own klass), and the root's plans are chosen with what the aggregate pays over each (root_cost).
  void set_aggregate_above(const AggregateAbove& above) {
    aggregate_ = above;
  }

  /// After every relation, condition, member and the aggregate above are known: the klasses of the distributions
  /// interned so far (the leaves') are decided with every key column known.
  void ready() {
    for (size_t i = 0; i < distributions_.size(); ++i) interesting_[i] = is_interesting(distributions_[i]);
  }

  double root_cost(int property, double) const override {
    if (!aggregate_) return 0;
    const Distribution& d = distributions_[static_cast<size_t>(property)];
    return aggregate_cost(aggregate_shape(d, aggregate_->groups, aggregate_->distinct), aggregate_->costs, costs_);
  }

  /// Relation `rel` (an inner input or a semi member's right input).
  void add_relation(const LogicalOperator& op, const PlanContext& ctx) {
    relation_property_.push_back(intern(logical_distribution(op)));
    relation_width_.push_back(op.observed_row_bytes > 0 ? 16 + op.observed_row_bytes : row_width(op.outputs, ctx));
  }
  /// Condition k of the inner joins (graph edge tags name them).
  void add_condition(EquiKey key) {
    if (key.valid) {
      key_columns_.insert(key.a);
      key_columns_.insert(key.b);
    }
    conditions_.push_back(key);
  }
  /// The semi member `rel`: its join type and its equi keys (left column, member column).
  void add_member(int rel, JoinType type, std::vector<ColumnId> left_keys, std::vector<ColumnId> right_keys) {
    for (ColumnId c : left_keys) key_columns_.insert(c);
    for (ColumnId c : right_keys) key_columns_.insert(c);
    members_[rel] = Member{type, std::move(left_keys), std::move(right_keys)};
  }

  void leaf_plans(int relation, double, std::vector<joinorder::PropertyPlan>& out) const override {
    const int p = relation_property_.at(static_cast<size_t>(relation));
    out.push_back({0, p, klass(p), 0});
  }

  void join_plans(joinorder::RelSet left, double left_rows, int left_property, joinorder::RelSet right,
                  double right_rows, int right_property, double out_rows,
                  std::vector<joinorder::PropertyPlan>& out) const override {
    if (left != cached_left_ || right != cached_right_) {
      cached_left_ = left;
      cached_right_ = right;
      join_keys(left, right, cached_type_, cached_pkeys_, cached_bkeys_);
    }
    const JoinType type = cached_type_;
    const std::vector<ColumnId>& pkeys = cached_pkeys_;
    const std::vector<ColumnId>& bkeys = cached_bkeys_;
    const Distribution& P = distributions_[static_cast<size_t>(left_property)];
    const Distribution& B = distributions_[static_cast<size_t>(right_property)];
    const double pw = width(left), bw = width(right);
    // The cost model sums work over workers, so it cannot see that gathering a distributed input to one worker
    // serializes everything above it. The per-join planner puts the larger input on the probe side, which keeps a
    // replicated (reference) input on the build side; the enumerator keeps to that: an inner join does not probe
    // with a single-instance input into a distributed one (the other orientation, a reference or broadcast join,
    // is always there). Seen on TPC-H Q21, where a 1-row estimate made gathering look free.
    if (type == JoinType::Inner && P.is_single_instance() && !B.is_single_instance()) return;
    if (pkeys.empty()) {
      // A nested-loop join: the build side is brought to the probe side (physical_planner: plan_join).
      const double b = std::max(1.0, right_rows);
      double cost = left_rows * b + out_rows + b * bw * costs_.memory_byte_weight;
      Distribution d = P;
      if (P.is_single_instance() && !B.is_single_instance()) {
        cost += exchange_cost(ExchangeKind::Gather, right_rows, bw, costs_).total;
      } else if (!P.is_single_instance() && B.kind != StreamDistribution::Replicated) {
        cost += exchange_cost(ExchangeKind::Broadcast, right_rows, bw, costs_).total;
      }
      if (P.kind == StreamDistribution::Replicated && B.kind == StreamDistribution::Replicated)
        d = Distribution::replicated();
      else if (P.is_single_instance())
        d = Distribution::single();
      const int p = intern(d);
      out.push_back({cost, p, klass(p), static_cast<int>(JoinWay::Chosen)});
      return;
    }
    JoinSides sides;
    sides.type = type;
    sides.probe = &P;
    sides.build = &B;
    sides.probe_keys = &pkeys;
    sides.build_keys = &bkeys;
    sides.probe_rows = left_rows;
    sides.build_rows = right_rows;
    sides.out_rows = out_rows;
    sides.probe_width = pw;
    sides.build_width = bw;
    sides.build_fits_broadcast = broadcast_fits(right_rows, bw, costs_.workers, costs_.memory_limit, share_);
    for (const JoinWayOption& w : join_way_options(sides, costs_)) {
      const int p = intern(w.out);
      out.push_back({w.cost, p, klass(p), static_cast<int>(w.way)});
    }
  }

 private:
  struct Member {
    JoinType type = JoinType::Semi;
    std::vector<ColumnId> left_keys, right_keys;
  };

  /// The join's type and equi keys (probe side first), as plan_join reads them from the rebuilt join.
  void join_keys(joinorder::RelSet left, joinorder::RelSet right, JoinType& type, std::vector<ColumnId>& pkeys,
                 std::vector<ColumnId>& bkeys) const {
    type = JoinType::Inner;
    pkeys.clear();
    bkeys.clear();
    auto member = joinorder::rel_count(right) == 1 ? members_.find(joinorder::lowest_rel(right)) : members_.end();
    if (member != members_.end()) {
      type = member->second.type;
      pkeys = member->second.left_keys;
      bkeys = member->second.right_keys;
    } else {
      // The conditions in the order the rebuilt join holds them (its edges, by index), as plan_join reads them.
      const joinorder::RelSet both = left | right;
      for (const joinorder::JoinEdge& e : graph_.edges()) {
        const joinorder::RelSet rels = e.relations();
        if (e.semi || !joinorder::is_subset(rels, both) || joinorder::is_subset(rels, left) ||
            joinorder::is_subset(rels, right))
          continue;
        const EquiKey& k = conditions_.at(static_cast<size_t>(e.tag));
        if (!k.valid) continue;
        if (joinorder::is_subset(k.a_rels, left) && joinorder::is_subset(k.b_rels, right)) {
          pkeys.push_back(k.a);
          bkeys.push_back(k.b);
        } else if (joinorder::is_subset(k.b_rels, left) && joinorder::is_subset(k.a_rels, right)) {
          pkeys.push_back(k.b);
          bkeys.push_back(k.a);
        }
      }
    }
  }

  /// Row width of a set's output: the inner inputs' and LEFT members' columns (a semi join adds none), or a lone
  /// member's.
  double width(joinorder::RelSet set) const {
    if (joinorder::rel_count(set) == 1) return relation_width_[static_cast<size_t>(joinorder::lowest_rel(set))];
    double w = 16;
    joinorder::for_each_rel(set & ~(graph_.semi_members() & ~graph_.left_members()),
                            [&](int r) { w += relation_width_[static_cast<size_t>(r)] - 16; });
    return w;
  }

  static uint64_t hash_of(const Distribution& d) {
    uint64_t h = static_cast<uint64_t>(d.kind) * 0x9e3779b97f4a7c15ULL ^ static_cast<uint64_t>(d.buckets);
    auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001b3ULL; };
    for (ColumnId c : d.columns) mix(c);
    for (const MappedKey& m : d.mapped) {
      mix(std::hash<std::string>{}(m.mapping));
      for (ColumnId c : m.columns) mix(c);
    }
    return h;
  }

  int intern(const Distribution& d) const {
    std::vector<int>& same_hash = by_hash_[hash_of(d)];
    for (int i : same_hash)
      if (same_distribution(distributions_[static_cast<size_t>(i)], d)) return i;
    same_hash.push_back(static_cast<int>(distributions_.size()));
    distributions_.push_back(d);
    interesting_.push_back(is_interesting(d));
    return static_cast<int>(distributions_.size()) - 1;
  }

  bool is_interesting(const Distribution& d) const {
    if (d.kind == StreamDistribution::Single || d.kind == StreamDistribution::Replicated) return true;
    if (d.kind != StreamDistribution::Hashed) return false;
    auto keys = [&](const std::vector<ColumnId>& cols) {
      if (cols.empty()) return false;
      for (ColumnId c : cols)
        if (!key_columns_.count(c)) return false;
      return true;
    };
    // A later join can only stay where a stream is hashed on one of its keys: one column (a composite key's
    // distribution, left by a two-sided repartition, is rarely met again and would crowd out the others).
    bool interesting = d.columns.size() == 1 && keys(d.columns);
    for (const MappedKey& m : d.mapped) interesting |= keys(m.columns);
    // The aggregate above runs without an exchange over a stream hashed on a subset of its groups (aggregate_ways):
    // every such distribution keeps its plan, and all others cost the aggregate alike (root_cost's klass rule).
    if (aggregate_) interesting |= aggregate_is_local(d, aggregate_->groups);
    return interesting;
  }

  int klass(int property) const { return interesting_[static_cast<size_t>(property)] ? property : -1; }

  const joinorder::QueryGraph& graph_;
  CostModelOptions costs_;
  double share_;
  std::vector<int> relation_property_;
  std::vector<double> relation_width_;
  std::vector<EquiKey> conditions_;
  std::map<int, Member> members_;
  std::set<ColumnId> key_columns_;
  std::optional<AggregateAbove> aggregate_;
  mutable std::vector<Distribution> distributions_;
  mutable std::unordered_map<uint64_t, std::vector<int>> by_hash_;
  mutable joinorder::RelSet cached_left_ = 0, cached_right_ = 0;
  mutable JoinType cached_type_ = JoinType::Inner;
  mutable std::vector<ColumnId> cached_pkeys_, cached_bkeys_;
  mutable std::vector<bool> interesting_;
};

}  // namespace

std::vector<uint64_t> condition_inputs(const std::vector<const LogicalOperator*>& leaves,
                                       const std::vector<const Expr*>& conditions) {
  std::vector<std::set<ColumnId>> cols;
  for (const LogicalOperator* l : leaves) cols.push_back(output_set(*l));
  std::vector<uint64_t> touched(conditions.size(), 0);
  for (size_t k = 0; k < conditions.size(); ++k)
    for (ColumnId c : columns_of(*conditions[k]))
      for (size_t i = 0; i < cols.size(); ++i)
        if (cols[i].count(c)) touched[k] |= uint64_t{1} << i;
  return touched;
}

bool condition_inside(uint64_t touched, uint64_t set, size_t leaf_count) {
  const bool all = set == (leaf_count >= 64 ? ~uint64_t{0} : (uint64_t{1} << leaf_count) - 1);
  return all || (touched != 0 && (touched & ~set) == 0 && __builtin_popcountll(touched) >= 2);
}

namespace {

/// order_joins_by_cost under `above`: the aggregate the plan sits under (through filters and projections), if any.
bool order_joins(LogicalPtr& plan, CardinalityModel& model, PlanContext& ctx, const PhysicalPlannerOptions& physical,
                 const AggregateAbove* above) {
  bool changed = false;
  RegionSize size;
  const bool track = is_region_join(*plan, {}) && region_has_left_join(*plan);
  if (is_region_join(*plan, {})) measure(*plan, {}, track, size);
  if (size.inner_joins == 0 || size.relations < 3) {
    const std::optional<AggregateAbove> below = aggregate_above_children(*plan, above, ctx, physical.workers);
    for (auto& c : plan->children) changed |= order_joins(c, model, ctx, physical, below ? &*below : nullptr);
    if (changed) {
      refresh_outputs(*plan);
      model.estimate(*plan);
    }
    return changed;
  }
  if (size.relations > static_cast<size_t>(joinorder::QueryGraph::kMaxRelations))
    throw Error(ErrorCode::NOT_SUPPORTED,
                fmt::format("an inner join of {} inputs: the cost-based join order takes at most {} (SET disabled_rules "
                            "= cost_based_join_order keeps the written order)",
                            size.relations, joinorder::QueryGraph::kMaxRelations));
  const std::string before = shape(*plan);
  Region region;
  flatten(plan, {}, track, model, region);
  std::vector<LogicalPtr>& leaves = region.leaves;
  std::vector<ExprPtr>& conds = region.conds;
  const std::vector<NodeId>& ids = region.ids;
  for (auto& l : leaves) changed |= order_joins(l, model, ctx, physical, nullptr);
  for (auto& m : region.semis) changed |= order_joins(m.right, model, ctx, physical, nullptr);

  joinorder::QueryGraph graph;
  for (size_t i = 0; i < leaves.size(); ++i)
    graph.add_relation(std::max(1.0, model.estimate(*leaves[i])), static_cast<int64_t>(i));
  // One hyperedge per condition. Conditions between the same inputs (composite keys) share one
  // selectivity, as the model's for the join: the first edge carries it, the others 1, and all are
  // applied at the same join.
  std::vector<const LogicalOperator*> leaf_ptrs;
  for (auto& l : leaves) leaf_ptrs.push_back(l.get());
  std::vector<const Expr*> cond_ptrs;
  for (auto& c : conds) cond_ptrs.push_back(c.get());
  const std::vector<joinorder::RelSet> touched_by = condition_inputs(leaf_ptrs, cond_ptrs);
  std::map<joinorder::RelSet, std::vector<size_t>> by_inputs;
  for (size_t k = 0; k < conds.size(); ++k)
    if (__builtin_popcountll(touched_by[k]) >= 2) by_inputs[touched_by[k]].push_back(k);  // else: on top, below
  for (auto& [touched, ks] : by_inputs) {
    joinorder::RelSet first = touched & (~touched + 1);
    double left_rows = graph.relations()[static_cast<size_t>(__builtin_ctzll(first))].cardinality;
    double right_rows = 1;
    for (size_t i = 0; i < leaves.size(); ++i)
      if ((touched & ~first) >> i & 1) right_rows *= graph.relations()[i].cardinality;
    std::vector<const Expr*> eqs;
    double combined = 1;
    for (size_t k : ks) {
      if (conds[k]->kind == ExprKind::Call && conds[k]->op == ScalarOp::Eq) eqs.push_back(conds[k].get());
      else combined *= model.join_condition_selectivity(*conds[k], left_rows, right_rows);
    }
    std::optional<double> composite;
    if (__builtin_popcountll(touched) == 2)
      composite = model.composite_key_selectivity(eqs, *leaves[static_cast<size_t>(__builtin_ctzll(first))],
                                                  *leaves[static_cast<size_t>(__builtin_ctzll(touched & ~first))]);
    if (composite) {
      combined *= *composite;
    } else {
      std::vector<double> keys;
      for (const Expr* e : eqs) keys.push_back(model.join_condition_selectivity(*e, left_rows, right_rows));
      combined *= CardinalityModel::combine_key_selectivities(keys);
    }
    for (size_t n = 0; n < ks.size(); ++n)
      graph.add_edge(first, touched & ~first, n == 0 ? combined : 1.0, static_cast<int>(ks[n]));
  }
  // Members: the right input is one relation; its conditions' left-side columns name the relations that must be
  // below it; the share of left rows a semi join keeps (semi_join_keep) and the rows per left row of a LEFT join
  // (left_join_fanout) are the model's, as for the written node.
  std::set<ColumnId> left_cols;
  for (auto& l : leaves)
    for (ColumnId c : l->outputs) left_cols.insert(c);
  for (size_t m = 0; m < region.semis.size(); ++m) {
    const LogicalJoin& j = region.semis[m].join->as<LogicalJoin>();
    std::vector<const Expr*> semi_conds;
    for (auto& c : j.conditions) semi_conds.push_back(c.get());
    joinorder::RelSet required = 0;
    for (joinorder::RelSet t : condition_inputs(leaf_ptrs, semi_conds)) required |= t;
    HS_ASSERT(required != 0, "join order: a member whose conditions read no left input");
    const double right_rows = std::max(1.0, model.estimate(*region.semis[m].right));
    if (region.semis[m].left_join())
      graph.add_left_member(right_rows, required, model.left_join_fanout(j, region.semis[m].left_rows, right_rows),
                            static_cast<int64_t>(m));
    else
      graph.add_semi_member(right_rows, required, model.semi_join_keep(j, left_cols, *region.semis[m].right),
                            static_cast<int64_t>(m));
  }
  joinorder::HashJoinCostModel cost;
  // With observed statistics, every set of relations the enumerator prices is first looked up by
  // its join-set signature (the inputs, the conditions inside the set and its semi members).
  joinorder::CardinalityOverride observed;
  if (model.has_stats_source() && leaves.size() < 64) {
    observed = [&](joinorder::RelSet set) -> std::optional<joinorder::ObservedCardinality> {
      if (__builtin_popcountll(set) < 2) return std::nullopt;
      std::vector<const LogicalOperator*> inputs;
      for (size_t i = 0; i < leaves.size(); ++i)
        if (set >> i & 1) inputs.push_back(leaves[i].get());
      const joinorder::RelSet inner = set & ~graph.semi_members();
      std::vector<const Expr*> inside;
      for (size_t k = 0; k < conds.size(); ++k)
        if (condition_inside(touched_by[k], inner, leaves.size())) inside.push_back(conds[k].get());
      std::vector<PlanSigner::SemiMemberRef> members;
      for (size_t m = 0; m < region.semis.size(); ++m)
        if (set >> (leaves.size() + m) & 1) members.push_back(semi_member_ref(region.semis[m]));
      return model.observed_join_rows(inputs, inside, members);
    };
  }
  joinorder::CardinalityEstimator estimator(graph, observed);
  // At more than one worker: interesting distributions, exchanges priced as the physical planner prices them.
  std::optional<DistributionModel> distributions;
  if (physical.workers > 1) {
    distributions.emplace(graph, physical, ctx);
    for (auto& l : leaves) distributions->add_relation(*l, ctx);
    for (auto& m : region.semis) distributions->add_relation(*m.right, ctx);
    for (auto& c : conds) {
      EquiKey key;
      if (c->kind == ExprKind::Call && c->op == ScalarOp::Eq) {
        const std::vector<joinorder::RelSet> sides = condition_inputs(leaf_ptrs, {c->children[0].get(), c->children[1].get()});
        key.a_rels = sides[0];
        key.b_rels = sides[1];
        key.a = join_key_column(*c->children[0]);
        key.b = join_key_column(*c->children[1]);
        key.valid = key.a_rels != 0 && key.b_rels != 0 && (key.a_rels & key.b_rels) == 0;
      }
      distributions->add_condition(key);
    }
    for (size_t m = 0; m < region.semis.size(); ++m) {
      const LogicalJoin& j = region.semis[m].join->as<LogicalJoin>();
      const std::set<ColumnId> right_cols = output_set(*region.semis[m].right);
      std::vector<ColumnId> lk, rk;
      for (auto& c : j.conditions) {
        if (c->kind != ExprKind::Call || c->op != ScalarOp::Eq) continue;
        const Expr& a = *c->children[0];
        const Expr& b = *c->children[1];
        const bool a_left = !columns_of(a).empty() && covered_by(a, left_cols);
        const bool b_left = !columns_of(b).empty() && covered_by(b, left_cols);
        const bool a_right = !columns_of(a).empty() && covered_by(a, right_cols);
        const bool b_right = !columns_of(b).empty() && covered_by(b, right_cols);
        if (a_left && b_right) {
          lk.push_back(join_key_column(a));
          rk.push_back(join_key_column(b));
        } else if (b_left && a_right) {
          lk.push_back(join_key_column(b));
          rk.push_back(join_key_column(a));
        }
      }
      // As plan_join maps the join types (a LEFT join probes with its preserved side: ProbeOuter).
      const JoinType type = j.type == LogicalJoinType::Semi   ? JoinType::Semi
                            : j.type == LogicalJoinType::Anti ? JoinType::Anti
                            : j.type == LogicalJoinType::Left ? JoinType::ProbeOuter
                                                              : JoinType::NullAwareAnti;
      distributions->add_member(static_cast<int>(leaves.size() + m), type, std::move(lk), std::move(rk));
    }
    if (above != nullptr) distributions->set_aggregate_above(*above);
    distributions->ready();
  }
  joinorder::JoinTree tree =
      joinorder::best_join_order(graph, cost, estimator.as_function(), joinorder::kDefaultDpLimit,
                                 distributions ? &*distributions : nullptr);

  // Rebuild bottom-up; reuse the original join ids (inner joins) and nodes (semi joins).
  size_t next_id = 0;
  std::vector<LogicalPtr> built(tree.nodes.size());
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    const joinorder::JoinNode& jn = tree.nodes[n];
    if (jn.is_leaf()) {
      if (!graph.is_semi_member(jn.relation)) built[n] = std::move(leaves[static_cast<size_t>(jn.relation)]);
      continue;  // a semi member's input is taken by its semi join
    }
    if (jn.semi) {
      const size_t m = static_cast<size_t>(tree.nodes[static_cast<size_t>(jn.right)].relation) - leaves.size();
      LogicalPtr j = std::move(region.semis[m].join);
      j->as<LogicalJoin>().way = static_cast<JoinWay>(jn.way);
      j->children.push_back(std::move(built[static_cast<size_t>(jn.left)]));
      j->children.push_back(std::move(region.semis[m].right));
      refresh_outputs(*j);
      built[n] = std::move(j);
      continue;
    }
    NodeId id = next_id < ids.size() ? ids[ids.size() - 1 - next_id++] : ctx.next_node_id();
    auto j = std::make_unique<LogicalJoin>(id);
    j->type = LogicalJoinType::Inner;
    j->way = static_cast<JoinWay>(jn.way);  // Chosen (0) without distributions
    for (int e : jn.edges_applied) {
      int k = graph.edges()[static_cast<size_t>(e)].tag;
      j->conditions.push_back(std::move(conds[static_cast<size_t>(k)]));
    }
    j->children.push_back(std::move(built[static_cast<size_t>(jn.left)]));
    j->children.push_back(std::move(built[static_cast<size_t>(jn.right)]));
    refresh_outputs(*j);
    built[n] = std::move(j);
  }
  plan = std::move(built[static_cast<size_t>(tree.root)]);
  // Conditions outside the graph (fewer than two inputs) and any the tree left out go on the top
  // inner join: the one over every inner-join input, under the semi joins applied last (a
  // condition on an anti join would keep the rows it rejects).
  LogicalOperator* top = plan.get();
  while (!is_inner_join(*top)) top = top->children.at(0).get();
  for (auto& c : conds)
    if (c) top->as<LogicalJoin>().conditions.push_back(std::move(c));
  model.estimate(*plan);
  return shape(*plan) != before || changed;
}

}  // namespace

bool order_joins_by_cost(LogicalPtr& plan, CardinalityModel& model, PlanContext& ctx,
                         const PhysicalPlannerOptions& physical) {
  return order_joins(plan, model, ctx, physical, nullptr);
}

}  // namespace hindsight
