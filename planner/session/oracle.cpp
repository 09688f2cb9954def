#include "planner/session/oracle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>

#include "planner/common/elapsed.hpp"
#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"
#include "planner/optimizer/cost_based_join_order.hpp"
#include "planner/physical/physical_planner.hpp"
#include "planner/signing/plan_signer.hpp"

namespace hindsight {

namespace {

using RelSet = uint64_t;
using Kind = stats::StatsSource::KeyKind;

/// Answers with the counts it was given, as `label` (the oracle's, or a re-plan's counted scans: runtime).
class OracleSource final : public stats::StatsSource {
 public:
  explicit OracleSource(stats::EstimateSource label = stats::EstimateSource::Oracle) : label_(label) {}
  void put(Kind kind, const sig::Signature& s, double rows) { rows_[{kind, s}] = rows; }
  std::optional<stats::ObservedRows> find(KeyKind kind, const sig::Signature& key) const override {
    auto it = rows_.find({kind, key});
    if (it == rows_.end()) return std::nullopt;
    stats::ObservedRows o;
    o.rows = it->second;
    return o;
  }
  std::optional<stats::RowEstimate> lookup(const stats::SignatureKeys& keys) const override {
    if (auto o = find(KeyKind::Exact, keys.exact)) return stats::RowEstimate{*o, label_};
    if (keys.join_set)
      if (auto o = find(KeyKind::JoinSet, *keys.join_set)) return stats::RowEstimate{*o, label_};
    return std::nullopt;
  }
  bool empty() const override { return rows_.empty(); }
  bool has(Kind kind, const sig::Signature& s) const { return rows_.count({kind, s}) > 0; }

 private:
  stats::EstimateSource label_;
  std::map<std::pair<Kind, sig::Signature>, double> rows_;
};

bool is_inner_join(const LogicalOperator& op) {
  return op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Inner;
}

/// A maximal tree of inner joins and of the semi and LEFT joins among them (is_region_member_join): its
/// inner-join inputs (the slots of the plan holding them), conditions and members, as the join enumerator
/// sees them (cost_based_join_order.cpp).
struct Region {
  struct Member {
    const LogicalJoin* join;  // the semi, anti, null-aware anti or LEFT join (type and conditions)
    LogicalPtr* right;        // the slot of its right input
    RelSet required = 0;      // the inputs its conditions read
  };
  std::vector<LogicalPtr*> leaves;
  std::vector<const Expr*> conditions;
  std::vector<RelSet> touched;  // per condition: the inputs whose columns it reads
  std::vector<Member> members;
  size_t inner_joins = 0;
};

/// `read_above`: the columns the conditions of the region's joins above `slot` read (is_region_member_join).
void flatten(LogicalPtr& slot, const std::set<ColumnId>& read_above, Region& r) {
  const bool member = is_region_member_join(*slot, read_above);
  if (!member && !is_inner_join(*slot)) {
    r.leaves.push_back(&slot);
    return;
  }
  std::set<ColumnId> cols = read_above;
  add_condition_columns(*slot, cols);
  if (member) {
    r.members.push_back({&slot->as<LogicalJoin>(), &slot->children[1], 0});
    flatten(slot->children[0], cols, r);
    return;
  }
  ++r.inner_joins;
  for (auto& c : slot->as<LogicalJoin>().conditions) r.conditions.push_back(c.get());
  flatten(slot->children[0], cols, r);
  flatten(slot->children[1], cols, r);
}

/// Every region of the plan under `slot`, and every base-table scan.
void find_regions(LogicalPtr& slot, std::vector<Region>& regions, std::vector<const LogicalOperator*>& gets) {
  if (slot->kind == LogicalKind::Get) gets.push_back(slot.get());
  if (!is_inner_join(*slot) && !is_region_member_join(*slot, {})) {
    for (auto& c : slot->children) find_regions(c, regions, gets);
    return;
  }
  Region r;
  flatten(slot, {}, r);
  std::vector<const LogicalOperator*> leaves;
  for (LogicalPtr* l : r.leaves) leaves.push_back(l->get());
  r.touched = condition_inputs(leaves, r.conditions);
  for (Region::Member& m : r.members) {
    std::vector<const Expr*> conds;
    for (auto& c : m.join->conditions) conds.push_back(c.get());
    for (RelSet t : condition_inputs(leaves, conds)) m.required |= t;
  }
  std::vector<LogicalPtr*> slots = r.leaves;
  for (const Region::Member& m : r.members) slots.push_back(m.right);
  regions.push_back(std::move(r));
  for (LogicalPtr* l : slots) find_regions(*l, regions, gets);
}

/// The conditions the enumerator counts inside `set` (condition_inside: the same rule as its look-up).
std::vector<size_t> inside(const Region& r, RelSet set) {
  std::vector<size_t> out;
  for (size_t k = 0; k < r.conditions.size(); ++k)
    if (condition_inside(r.touched[k], set, r.leaves.size())) out.push_back(k);
  return out;
}

/// True when the inputs of `set` are connected by conditions inside it.
bool connected(const Region& r, RelSet set) {
  RelSet reached = set & (~set + 1);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t k = 0; k < r.conditions.size(); ++k) {
      const RelSet t = r.touched[k];
      if (__builtin_popcountll(t) < 2 || (t & ~set) != 0 || (t & reached) == 0 || (t & ~reached) == 0) continue;
      reached |= t;
      grew = true;
    }
  }
  return reached == set;
}

class Oracle {
 public:
  Oracle(Database& db, CompiledQuery& cq, const Settings& settings, QueryLimits* limits, OracleReport& report,
         stats::EstimateSource label = stats::EstimateSource::Oracle)
      : db_(db), cq_(cq), settings_(settings), limits_(limits), report_(report), signer_(cq.ctx),
        source_(std::make_shared<OracleSource>(label)) {
    for (size_t i = 0; i < cq.ctes.size(); ++i) signer_.set_cte(static_cast<int>(i), *cq.ctes[i].logical);
    for (auto& c : cq.ctes) ctes_.push_back(c.physical.get());
  }

  /// count_filtered_scans: the filtered base-table scans `known` has no exact count of, each counted alone, cheapest
  /// first, as long as their scans together cost at most kCountableShare of the plan's work.
  std::shared_ptr<const stats::StatsSource> run_scans(const std::function<bool(const sig::Signature&)>& known,
                                                      std::vector<CountedScan>& counted) {
    std::vector<Region> regions;
    std::vector<const LogicalOperator*> gets;
    find_all_regions(regions, gets);
    // The physical operator implementing each logical node (a scan: its Get), and the plan's work in row-touches
    // (PlanCost::cpu: not the total, which a plan estimated over the memory limit inflates by its penalty).
    std::map<NodeId, const PhysicalOperator*> physical;
    double plan_work = 0;
    std::function<void(const PhysicalOperator&)> walk = [&](const PhysicalOperator& p) {
      if (p.logical_id != 0) physical[p.logical_id] = &p;
      plan_work += p.own_cost.cpu;
      for (auto& c : p.children) walk(*c);
    };
    for (const PhysicalOperator* p : ctes_) walk(*p);
    walk(*cq_.physical);
    // The unknown filtered scans (the catalog's row count of an unfiltered one is exact), cheapest first, counted
    // while what they cost together stays within the share.
    struct Candidate {
      const LogicalOperator* get;
      const PhysicalOperator* scan;
      sig::Signature signature;
    };
    std::vector<Candidate> candidates;
    for (const LogicalOperator* g : gets) {
      auto scan = physical.find(g->id);
      if (g->as<LogicalGet>().filters.empty() || scan == physical.end()) continue;
      const sig::Signature s = signer_.sign(*g).exact;
      if (!known(s)) candidates.push_back({g, scan->second, s});
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return a.scan->own_cost.cpu < b.scan->own_cost.cpu;
    });
    double spent = 0;
    for (const Candidate& c : candidates) {
      if (source_->has(Kind::Exact, c.signature)) continue;  // the same scan twice (a self-join)
      spent += c.scan->own_cost.cpu;
      if (spent > kCountableShare * plan_work || !room()) break;
      count_input(*c.get);
      if (auto rows = source_->find(Kind::Exact, c.signature))
        counted.push_back({c.get->as<LogicalGet>().table.name, c.scan->estimated_rows, rows->rows});
    }
    return source_;
  }

  std::shared_ptr<const stats::StatsSource> run() {
    std::vector<Region> regions;
    std::vector<const LogicalOperator*> gets;
    find_all_regions(regions, gets);
    // Inputs first (every join's estimate builds on them), then the sets, smallest first.
    for (const LogicalOperator* g : gets) count_input(*g);
    for (Region& r : regions) {
      for (LogicalPtr* l : r.leaves) count_input(**l);
      for (const Region::Member& m : r.members) count_input(**m.right);
    }
    for (size_t size = 1;; ++size) {
      bool any = false;
      for (Region& r : regions) {
        if (r.leaves.size() < size || r.leaves.size() > 63 || r.members.size() > 16) continue;
        any = true;
        count_sets(r, size);
      }
      if (!any) break;
    }
    return source_;
  }

 private:
  bool room() const { return report_.subplans < report_.cap; }

  /// find_regions over the plans of the CTEs and of the query.
  void find_all_regions(std::vector<Region>& regions, std::vector<const LogicalOperator*>& gets) {
    for (auto& c : cq_.ctes) find_regions(c.logical, regions, gets);
    find_regions(cq_.logical, regions, gets);
  }

  void count_input(const LogicalOperator& op) {
    const sig::Signature s = signer_.sign(op).exact;
    if (source_->has(Kind::Exact, s)) return;
    if (!room()) {
      ++report_.skipped;
      return;
    }
    // Plan COUNT(*) over the input where it is: a logical node planned as the child of a new
    // aggregate needs no ownership, only a parent; borrow it from its slot meanwhile.
    LogicalPtr* slot = slot_of(op);
    HS_ASSERT(slot, "oracle: an input without a slot in the plan");
    if (auto n = count_borrowed({slot}, {}, {})) source_->put(Kind::Exact, s, *n);
  }

  /// Every connected set of `size` inner-join inputs, with each set of the members (semi and LEFT) whose inputs
  /// it holds (a set of one input only with a member: alone it is an input).
  void count_sets(Region& r, size_t size) {
    const size_t n = r.leaves.size();
    // Sets of `size` inputs in increasing order of their bits (Gosper's hack).
    for (RelSet set = (RelSet{1} << size) - 1; set < (RelSet{1} << n);) {
      if (connected(r, set)) {
        RelSet eligible = 0;
        for (size_t m = 0; m < r.members.size(); ++m)
          if ((r.members[m].required & ~set) == 0) eligible |= RelSet{1} << m;
        // Every subset of the eligible members, the empty one first.
        RelSet members = 0;
        do {
          if (size >= 2 || members != 0) count_set(r, set, members);
          members = (members - eligible) & eligible;
        } while (members != 0);
      }
      const RelSet c = set & (~set + 1), next = set + c;
      set = (((next ^ set) >> 2) / c) | next;
      if (++examined_ > kMaxExamined) {
        ++report_.skipped;
        return;
      }
    }
  }

  void count_set(Region& r, RelSet set, RelSet member_set) {
    std::vector<const LogicalOperator*> inputs;
    for (size_t i = 0; i < r.leaves.size(); ++i)
      if (set >> i & 1) inputs.push_back(r.leaves[i]->get());
    const std::vector<size_t> ks = inside(r, set);
    std::vector<const Expr*> conds;
    for (size_t k : ks) conds.push_back(r.conditions[k]);
    std::vector<PlanSigner::SemiMemberRef> refs;
    std::vector<const Region::Member*> members;
    for (size_t m = 0; m < r.members.size(); ++m)
      if (member_set >> m & 1) {
        const Region::Member& mem = r.members[m];
        refs.push_back({mem.join->type, &mem.join->conditions, mem.right->get()});
        members.push_back(&mem);
      }
    const sig::Signature key = signer_.join_set_of(inputs, conds, refs);
    if (source_->has(Kind::JoinSet, key)) return;
    if (!room()) {
      ++report_.skipped;
      return;
    }
    // A left-deep order in which every input joins one already there (the set is connected), each
    // condition applied at the first join where all its inputs are present; the member joins (semi, LEFT) on top.
    std::vector<size_t> order;
    RelSet built = 0;
    const RelSet first = set & (~set + 1);
    order.push_back(static_cast<size_t>(__builtin_ctzll(first)));
    built = first;
    while (built != set) {
      size_t pick = SIZE_MAX;
      for (size_t i = 0; i < r.leaves.size() && pick == SIZE_MAX; ++i) {
        if (!(set >> i & 1) || (built >> i & 1)) continue;
        for (size_t k : ks)
          if ((r.touched[k] >> i & 1) && (r.touched[k] & built) != 0 && (r.touched[k] & ~(built | RelSet{1} << i)) == 0) {
            pick = i;
            break;
          }
      }
      if (pick == SIZE_MAX)  // hyperedges only: take the lowest input left (a cross product step)
        pick = static_cast<size_t>(__builtin_ctzll(set & ~built));
      order.push_back(pick);
      built |= RelSet{1} << pick;
    }
    std::vector<LogicalPtr*> slots;
    std::vector<RelSet> masks;
    for (size_t i : order) {
      slots.push_back(r.leaves[i]);
      masks.push_back(RelSet{1} << i);
    }
    std::vector<std::pair<RelSet, const Expr*>> placed;
    for (size_t k : ks) placed.emplace_back(r.touched[k], r.conditions[k]);
    if (auto n = count_borrowed(slots, masks, placed, members)) source_->put(Kind::JoinSet, key, *n);
  }

  /// COUNT(*) over the inputs in `slots` joined left-deep in that order (`masks`: each input's bit),
  /// `conds` applied where their inputs are present. The inputs are moved out of their slots while
  /// the sub-plan is planned, and back before this returns (or throws). nullopt when the count ran
  /// past oracle_subplan_timeout (the set is left to the model).
  std::optional<double> count_borrowed(const std::vector<LogicalPtr*>& slots, const std::vector<RelSet>& masks,
                        const std::vector<std::pair<RelSet, const Expr*>>& conds,
                        const std::vector<const Region::Member*>& semis = {}) {
    struct Borrow {
      std::vector<LogicalPtr*> slots;
      std::vector<LogicalOperator*> nodes;
      LogicalPtr tree;
      ~Borrow() {
        // Take each input back out of the temporary tree, wherever it sits in it.
        std::function<void(LogicalPtr&)> give_back = [&](LogicalPtr& p) {
          if (!p) return;
          for (size_t i = 0; i < nodes.size(); ++i)
            if (p.get() == nodes[i]) {
              *slots[i] = std::move(p);
              return;
            }
          for (auto& c : p->children) give_back(c);
        };
        give_back(tree);
      }
    } borrow;
    borrow.slots = slots;
    for (const Region::Member* m : semis) borrow.slots.push_back(m->right);
    for (LogicalPtr* s : borrow.slots) borrow.nodes.push_back(s->get());

    LogicalPtr& tree = borrow.tree;  // the borrowed inputs are always somewhere in it
    tree = std::move(*slots[0]);
    RelSet built = masks.empty() ? 0 : masks[0];
    std::vector<bool> used(conds.size(), false);
    for (size_t i = 1; i < slots.size(); ++i) {
      built |= masks[i];
      auto j = std::make_unique<LogicalJoin>(cq_.ctx.next_node_id());
      j->type = LogicalJoinType::Inner;
      j->children.reserve(2);  // the moves below cannot throw
      for (size_t k = 0; k < conds.size(); ++k)
        if (!used[k] && (conds[k].first & ~built) == 0) {
          j->conditions.push_back(conds[k].second->clone());
          used[k] = true;
        }
      j->estimated_rows = std::max(tree->estimated_rows, (*slots[i])->estimated_rows);
      j->children.push_back(std::move(tree));
      j->children.push_back(std::move(*slots[i]));
      refresh_outputs(*j);
      tree = std::move(j);
    }
    for (const Region::Member* m : semis) {
      auto j = std::make_unique<LogicalJoin>(cq_.ctx.next_node_id());
      j->type = m->join->type;
      j->children.reserve(2);
      for (auto& c : m->join->conditions) j->conditions.push_back(c->clone());
      j->estimated_rows = tree->estimated_rows;
      j->children.push_back(std::move(tree));
      j->children.push_back(std::move(*m->right));
      refresh_outputs(*j);
      tree = std::move(j);
    }
    auto agg = std::make_unique<LogicalAggregate>(cq_.ctx.next_node_id());
    AggregateCall count;
    count.kind = AggKind::CountStar;
    count.type = DataType::bigint();
    agg->aggs.push_back(count);
    const ColumnId out = cq_.ctx.add_column({"oracle_count", DataType::bigint(), "", ""});
    agg->outputs = {out};
    agg->estimated_rows = 1;
    agg->children.reserve(1);
    agg->children.push_back(std::move(tree));
    tree = std::move(agg);

    const int64_t budget =
        settings_.oracle_subplan_memory_limit > 0 ? settings_.oracle_subplan_memory_limit : settings_.memory_limit;
    PhysicalPlannerOptions opts;
    opts.workers = settings_.effective_workers();
    opts.memory_limit = budget;
    opts.cost_based = settings_.optimizer != "foundation";
    opts.load_guard = limits_;
    PhysicalPlanner planner(cq_.ctx, opts, [&](const TableDef& def) {
      LoadInfo info;
      return db_.table(def.name, info, limits_);
    });
    PhysicalPtr plan = planner.plan(*borrow.tree);
    ++report_.subplans;
    // Each count has its own deadline (and memory budget): a sub-join that is too big to count in
    // oracle_subplan_timeout is left to the model rather than holding the statement up.
    Settings sub = settings_;
    sub.timeout_ms = settings_.oracle_subplan_timeout_ms;
    sub.memory_limit = budget;
    QueryLimits sub_limits(sub);
    ExecutedQuery run = execute_plan(*plan, cq_.ctx, ctes_, {out}, sub, &sub_limits);
    report_.cpu_ms += run.cpu_ms;
    if (run.error && run.error->code() == ErrorCode::TIMEOUT && sub.timeout_ms > 0 &&
        (!limits_ || std::chrono::steady_clock::now() < limits_->deadline())) {
      ++report_.timed_out;
      return std::nullopt;
    }
    // A count planned on the model's estimates may not fit the budget (a broadcast of an underestimated
    // side): the set is left to the model; the query itself is planned and run afterwards.
    if (run.error && run.error->code() == ErrorCode::MEMORY_LIMIT_EXCEEDED) {
      ++report_.out_of_memory;
      return std::nullopt;
    }
    if (run.error) throw *run.error;
    if (limits_) limits_->check_deadline("counting sub-plans for the oracle");
    for (const Batch& b : run.batches)
      if (b.rows > 0) return static_cast<double>(b.columns.at(0).get(0).i);
    return 0;
  }

  /// The slot holding `op` in the plans (nullptr if none).
  LogicalPtr* slot_of(const LogicalOperator& op) {
    LogicalPtr* found = nullptr;
    std::function<void(LogicalPtr&)> walk = [&](LogicalPtr& p) {
      if (found || !p) return;
      if (p.get() == &op) {
        found = &p;
        return;
      }
      for (auto& c : p->children) walk(c);
    };
    for (auto& c : cq_.ctes) walk(c.logical);
    walk(cq_.logical);
    return found;
  }

  static constexpr size_t kMaxExamined = size_t{1} << 20;  // relation sets looked at per query
  /// count_filtered_scans counts scans whose costs add up to at most this share of the plan's: counting reads a
  /// table once more (at SF 1 a string filter over lineitem's 6M rows takes about 35 ms on 4 workers, a third of some
  /// whole queries), while customer or part (150k, 200k rows) take about a millisecond.
  static constexpr double kCountableShare = 0.05;

  Database& db_;
  CompiledQuery& cq_;
  const Settings& settings_;
  QueryLimits* limits_;
  OracleReport& report_;
  PlanSigner signer_;
  std::vector<const PhysicalOperator*> ctes_;
  std::shared_ptr<OracleSource> source_;
  size_t examined_ = 0;
};

}  // namespace

std::string OracleReport::describe() const {
  std::string s = fmt::format("oracle: {} counting sub-plan{} in {:.1f} ms", subplans, subplans == 1 ? "" : "s", elapsed_ms);
  if (skipped > 0)
    s += fmt::format("; capped at oracle_max_subplans = {}: {} relation set{} left to the model", cap, skipped,
                     skipped == 1 ? "" : "s");
  if (out_of_memory > 0)
    s += fmt::format("; {} count{} ran out of memory and {} left to the model", out_of_memory,
                     out_of_memory == 1 ? "" : "s", out_of_memory == 1 ? "was" : "were");
  if (timed_out > 0)
    s += fmt::format("; {} count{} ran past oracle_subplan_timeout and {} left to the model", timed_out,
                     timed_out == 1 ? "" : "s", timed_out == 1 ? "was" : "were");
  return s;
}

std::shared_ptr<const stats::StatsSource> count_filtered_scans(Database& db, CompiledQuery& cq, const Settings& settings,
                                                               QueryLimits* limits,
                                                               const std::function<bool(const sig::Signature&)>& known,
                                                               OracleReport& report, std::vector<CountedScan>& counted) {
  const auto t0 = std::chrono::steady_clock::now();
  report = OracleReport{};
  report.cap = static_cast<size_t>(settings.oracle_max_subplans);
  auto source = Oracle(db, cq, settings, limits, report, stats::EstimateSource::Runtime).run_scans(known, counted);
  report.elapsed_ms = ms_since(t0);
  return source;
}

std::shared_ptr<const stats::StatsSource> oracle_cardinalities(Database& db, CompiledQuery& cq, const Settings& settings,
                                                               QueryLimits* limits, OracleReport& report) {
  const auto t0 = std::chrono::steady_clock::now();
  report = OracleReport{};
  report.cap = static_cast<size_t>(settings.oracle_max_subplans);
  auto source = Oracle(db, cq, settings, limits, report).run();
  report.elapsed_ms = ms_since(t0);
  return source;
}

}  // namespace hindsight
