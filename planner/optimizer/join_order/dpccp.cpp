#include "planner/optimizer/join_order/dpccp.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "planner/common/error.hpp"
#include "planner/optimizer/join_order/cross_product_join.hpp"

namespace hindsight::joinorder {

namespace {

/// Best plan found so far for one connected subgraph; sets in component-local numbering.
struct DpEntry {
  RelSet global = 0;  ///< The same set in graph numbering (what the cost model and CardinalityFn see).
  double rows = 0;
  double cost = std::numeric_limits<double>::infinity();
  RelSet left = 0;  ///< Best split; both 0 for a single relation.
  RelSet right = 0;
  bool present = false;
};

/// With interesting properties: the plans kept for one set, cheapest per klass.
struct PropPlan {
  double cost = 0;  ///< Whole subtree.
  double rank = 0;  ///< What plans compete by: the cost, plus PropertyModel::root_cost for the whole graph's plans.
  int property = 0;
  int klass = 0;
  int way = 0;
  RelSet left = 0;  ///< Local sets of the inputs (0 for a leaf) and the input plans taken.
  RelSet right = 0;
  uint8_t left_plan = 0;
  uint8_t right_plan = 0;
};

struct PropSlot {
  static constexpr int kMax = 8;
  std::array<PropPlan, kMax> plans;
  int count = 0;

  /// Keeps `p` if it is the cheapest of its klass and among the `limit` cheapest klasses.
  void offer(const PropPlan& p, int limit) {
    for (int i = 0; i < count; ++i) {
      if (plans[i].klass != p.klass) continue;
      if (p.rank < plans[i].rank) plans[i] = p;
      return;
    }
    if (count < limit) {
      plans[count++] = p;
      return;
    }
    int worst = 0;
    for (int i = 1; i < count; ++i)
      if (plans[i].rank > plans[worst].rank) worst = i;
    if (p.rank < plans[worst].rank) plans[worst] = p;
  }

  int cheapest() const {
    int best = 0;
    for (int i = 1; i < count; ++i)
      if (plans[i].rank < plans[best].rank) best = i;
    return best;
  }
};

/// DP table keyed by local relation set: a dense array for small components, a hash map beyond.
class DpTable {
 public:
  static constexpr int kDenseLimit = 16;

  explicit DpTable(int relations) : dense_(relations <= kDenseLimit) {
    if (dense_) entries_.resize(size_t{1} << relations);
  }

  const DpEntry* find(RelSet set) const {
    if (dense_) return entries_[set].present ? &entries_[set] : nullptr;
    auto it = map_.find(set);
    return it == map_.end() ? nullptr : &it->second;
  }

  /// The entry of `set`, default-constructed (present = false) when new. Node-based map: references stay valid.
  DpEntry& slot(RelSet set) { return dense_ ? entries_[set] : map_[set]; }

 private:
  bool dense_;
  std::vector<DpEntry> entries_;
  std::unordered_map<RelSet, DpEntry> map_;
};

/// DPccp over one connected component, renumbered 0..k-1 in breadth-first order as in the paper.
class DpccpComponent {
 public:
  /// Thrown when a PropertyModel's pair budget is spent (enumerate_dpccp then plans without properties).
  struct PropertyBudgetSpent {};

  DpccpComponent(const QueryGraph& graph, RelSet component, const JoinCostModel& cost_model, const CardinalityFn& card,
                 JoinOrderStats& stats, const PropertyModel* properties)
      : graph_(graph),
        cost_model_(cost_model),
        card_(card),
        stats_(stats),
        table_(rel_count(component)),
        has_semi_members_((component & graph.semi_members()) != 0),
        properties_(properties),
        whole_graph_(component == graph.all()) {
    number_breadth_first(component);
    if (properties_ != nullptr) {
      plan_limit_ = std::clamp(properties_->max_plans, 1, PropSlot::kMax);
      if (k_ <= DpTable::kDenseLimit) prop_dense_.resize(size_t{1} << k_);
    }
  }

  void run() {
    for (int i = 0; i < k_; ++i) {
      DpEntry& leaf = table_.slot(rel_bit(i));
      leaf.present = true;
      leaf.global = rel_bit(global_rel_[i]);
      leaf.rows = card_(leaf.global);
      leaf.cost = cost_model_.leaf_cost(leaf.global, leaf.rows);
      if (properties_ != nullptr) {
        scratch_.clear();
        properties_->leaf_plans(global_rel_[i], leaf.rows, scratch_);
        PropSlot& slot = prop_slot(rel_bit(i));
        const bool root = whole_graph_ && k_ == 1;
        for (const PropertyPlan& p : scratch_)
          slot.offer(PropPlan{p.cost, p.cost + (root ? properties_->root_cost(p.property, leaf.rows) : 0), p.property,
                              p.klass, p.way},
                     plan_limit_);
        leaf.cost = slot.plans[slot.cheapest()].cost;
      }
    }
    // EnumerateCsg: every connected subgraph, grouped by its lowest relation, highest first.
    for (int i = k_ - 1; i >= 0; --i) {
      emit_csg(rel_bit(i));
      enumerate_csg_rec(rel_bit(i), rels_up_to(i));
    }
  }

  /// Appends the best plan of the whole component to `tree`; returns its root index.
  int build(JoinTree& tree) const {
    const RelSet all = first_rels(k_);
    if (properties_ == nullptr) return build(tree, all);
    return build_with_properties(tree, all, prop_slot(all).cheapest());
  }

 private:
  void number_breadth_first(RelSet component) {
    std::array<int, 64> local{};
    RelSet seen = rel_bit(lowest_rel(component));
    std::vector<int> queue{lowest_rel(component)};
    for (size_t head = 0; head < queue.size(); ++head) {
      for_each_rel(graph_.adjacent(queue[head]) & ~seen, [&](int rel) {
        seen |= rel_bit(rel);
        queue.push_back(rel);
      });
    }
    k_ = static_cast<int>(queue.size());
    global_rel_ = queue;
    for (int i = 0; i < k_; ++i) local[queue[i]] = i;
    adjacency_.assign(k_, 0);
    for (int i = 0; i < k_; ++i) {
      for_each_rel(graph_.adjacent(queue[i]), [&](int rel) { adjacency_[i] |= rel_bit(local[rel]); });
    }
  }

  RelSet neighbourhood(RelSet set, RelSet excluded) const {
    RelSet result = 0;
    for_each_rel(set, [&](int rel) { result |= adjacency_[rel]; });
    return result & ~(set | excluded);
  }

  // EnumerateCsgRec: grows `set` by subsets of its neighbourhood outside `excluded`. Subsets are visited in
  // increasing order and all of them are emitted before any is grown further, so every connected subset of a csg is
  // emitted (and its pairs priced) before the csg itself.
  void enumerate_csg_rec(RelSet set, RelSet excluded) {
    const RelSet nb = neighbourhood(set, excluded);
    if (nb == 0) return;
    for_each_nonempty_subset(nb, [&](RelSet sub) { emit_csg(set | sub); });
    for_each_nonempty_subset(nb, [&](RelSet sub) { enumerate_csg_rec(set | sub, excluded | nb); });
  }

  // EmitCsg + EnumerateCmp: every connected complement of s1 whose relations all lie above min(s1), each once.
  void emit_csg(RelSet s1) {
    ++stats_.connected_subgraphs;
    const RelSet excluded = rels_up_to(lowest_rel(s1)) | s1;
    const RelSet nb = neighbourhood(s1, excluded);
    for (RelSet rest = nb; rest != 0;) {
      const int i = highest_rel(rest);
      rest &= ~rel_bit(i);
      emit_pair(s1, rel_bit(i));
      enumerate_cmp_rec(s1, rel_bit(i), excluded | (rels_up_to(i) & nb));
    }
  }

  void enumerate_cmp_rec(RelSet s1, RelSet s2, RelSet excluded) {
    const RelSet nb = neighbourhood(s2, excluded);
    if (nb == 0) return;
    for_each_nonempty_subset(nb, [&](RelSet sub) { emit_pair(s1, s2 | sub); });
    for_each_nonempty_subset(nb, [&](RelSet sub) { enumerate_cmp_rec(s1, s2 | sub, excluded | nb); });
  }

  void emit_pair(RelSet s1, RelSet s2) {
    ++stats_.ccp_pairs;
    const DpEntry* a = table_.find(s1);
    const DpEntry* b = table_.find(s2);
    if (properties_ != nullptr) [[unlikely]] {
      emit_pair_with_properties(s1, s2, a, b);
      return;
    }
    if (has_semi_members_) [[unlikely]] {
      emit_pair_with_semi_members(s1, s2, a, b);
      return;
    }
    HS_ASSERT(a != nullptr && b != nullptr, "dpccp: csg-cmp pair priced before its inputs");
    DpEntry& entry = table_.slot(s1 | s2);
    if (!entry.present) {
      entry.present = true;
      entry.global = a->global | b->global;
      entry.rows = card_(entry.global);
    }
    const OrientedJoin join =
        cheaper_orientation(cost_model_, a->global, a->rows, a->cost, b->global, b->rows, b->cost, entry.rows);
    if (join.cost < entry.cost) {
      entry.cost = join.cost;
      entry.left = join.swapped ? s2 : s1;
      entry.right = join.swapped ? s1 : s2;
    }
  }

  // With semi members some connected sets have no legal plan (a member without the relations it requires): they
  // never get an entry, and pairs holding them are skipped; a semi join is priced in its one legal orientation.
  void emit_pair_with_semi_members(RelSet s1, RelSet s2, const DpEntry* a, const DpEntry* b) {
    if (a == nullptr || b == nullptr) return;
    if (!graph_.legal_join(a->global, b->global) && !graph_.legal_join(b->global, a->global)) return;
    DpEntry& entry = table_.slot(s1 | s2);
    if (!entry.present) {
      entry.present = true;
      entry.global = a->global | b->global;
      entry.rows = card_(entry.global);
    }
    const OrientedJoin join = *cheaper_legal_orientation(cost_model_, graph_, a->global, a->rows, a->cost, b->global,
                                                         b->rows, b->cost, entry.rows);
    if (join.cost < entry.cost) {
      entry.cost = join.cost;
      entry.left = join.swapped ? s2 : s1;
      entry.right = join.swapped ? s1 : s2;
    }
  }

  PropSlot& prop_slot(RelSet set) { return prop_dense_.empty() ? prop_map_[set] : prop_dense_[set]; }
  const PropSlot& prop_slot(RelSet set) const {
    if (!prop_dense_.empty()) return prop_dense_[set];
    auto it = prop_map_.find(set);
    HS_ASSERT(it != prop_map_.end(), "dpccp: no plans for a set");
    return it->second;
  }

  // Every pair of input plans, in each legal orientation (left = probe), by every way the PropertyModel offers.
  void emit_pair_with_properties(RelSet s1, RelSet s2, const DpEntry* a, const DpEntry* b) {
    if (++property_pairs_ > properties_->max_pairs) throw PropertyBudgetSpent{};
    if (a == nullptr || b == nullptr) return;
    const bool ab = graph_.legal_join(a->global, b->global);
    const bool ba = graph_.legal_join(b->global, a->global);
    if (!ab && !ba) return;
    DpEntry& entry = table_.slot(s1 | s2);
    if (!entry.present) {
      entry.present = true;
      entry.global = a->global | b->global;
      entry.rows = card_(entry.global);
    }
    // Copies: the slot of s1 | s2 may be a new node of the map, which does not move the others, but be safe.
    const PropSlot pa = prop_slot(s1);
    const PropSlot pb = prop_slot(s2);
    PropSlot& out = prop_slot(s1 | s2);
    // The whole graph's plans compete with what the operator above pays for what each delivers.
    const bool root = whole_graph_ && (s1 | s2) == first_rels(k_);
    auto orient = [&](RelSet l, const DpEntry& le, const PropSlot& lp, RelSet r, const DpEntry& re, const PropSlot& rp) {
      for (int i = 0; i < lp.count; ++i) {
        for (int j = 0; j < rp.count; ++j) {
          scratch_.clear();
          properties_->join_plans(le.global, le.rows, lp.plans[i].property, re.global, re.rows, rp.plans[j].property,
                                  entry.rows, scratch_);
          const double inputs = lp.plans[i].cost + rp.plans[j].cost;
          for (const PropertyPlan& p : scratch_) {
            const double cost = inputs + p.cost;
            out.offer(PropPlan{cost, cost + (root ? properties_->root_cost(p.property, entry.rows) : 0), p.property,
                               p.klass, p.way, l, r, static_cast<uint8_t>(i), static_cast<uint8_t>(j)},
                      plan_limit_);
          }
        }
      }
    };
    if (ab) orient(s1, *a, pa, s2, *b, pb);
    if (ba) orient(s2, *b, pb, s1, *a, pa);
    HS_ASSERT(out.count > 0, "dpccp: the property model offered no way to join a pair");
    const PropPlan& best = out.plans[out.cheapest()];
    entry.cost = best.cost;
    entry.left = best.left;
    entry.right = best.right;
  }

  int build_with_properties(JoinTree& tree, RelSet set, int plan) const {
    const DpEntry* entry = table_.find(set);
    HS_ASSERT(entry != nullptr, "dpccp: no plan for a connected subgraph");
    const PropPlan& p = prop_slot(set).plans[static_cast<size_t>(plan)];
    int node = 0;
    if (p.left == 0) {
      node = tree.add_leaf(global_rel_[lowest_rel(set)], entry->rows, p.cost);
    } else {
      const int left = build_with_properties(tree, p.left, p.left_plan);
      const int right = build_with_properties(tree, p.right, p.right_plan);
      node = tree.add_join(graph_, left, right, entry->rows, p.cost);
    }
    tree.nodes[static_cast<size_t>(node)].way = p.way;
    tree.nodes[static_cast<size_t>(node)].property = p.property;
    return node;
  }

  int build(JoinTree& tree, RelSet set) const {
    const DpEntry* entry = table_.find(set);
    HS_ASSERT(entry != nullptr, "dpccp: no plan for a connected subgraph");
    if (entry->left == 0) return tree.add_leaf(global_rel_[lowest_rel(set)], entry->rows, entry->cost);
    const int left = build(tree, entry->left);
    const int right = build(tree, entry->right);
    return tree.add_join(graph_, left, right, entry->rows, entry->cost);
  }

  const QueryGraph& graph_;
  const JoinCostModel& cost_model_;
  const CardinalityFn& card_;
  JoinOrderStats& stats_;
  int k_ = 0;
  std::vector<int> global_rel_;    // local number -> graph number
  std::vector<RelSet> adjacency_;  // local numbering
  DpTable table_;
  bool has_semi_members_;
  const PropertyModel* properties_;
  bool whole_graph_;  // the component is the whole graph: its plan is what the operator above reads (root_cost)
  int plan_limit_ = 1;
  uint64_t property_pairs_ = 0;
  std::vector<PropSlot> prop_dense_;
  std::unordered_map<RelSet, PropSlot> prop_map_;
  std::vector<PropertyPlan> scratch_;
};

}  // namespace

JoinTree enumerate_dpccp(const QueryGraph& graph, const JoinCostModel& cost_model, const CardinalityFn& card,
                         const PropertyModel* properties) {
  if (graph.relation_count() == 0) throw std::invalid_argument("enumerate_dpccp: empty query graph");
  CardinalityEstimator model(graph);
  const CardinalityFn rows_of = card ? card : model.as_function();

  JoinTree tree;
  tree.stats.algorithm = JoinOrderAlgorithm::kDpccp;
  std::vector<int> roots;
  for (RelSet component : graph.components()) {
    try {
      DpccpComponent dp(graph, component, cost_model, rows_of, tree.stats, properties);
      dp.run();
      roots.push_back(dp.build(tree));
    } catch (const DpccpComponent::PropertyBudgetSpent&) {
      tree.stats.properties_dropped = true;
      DpccpComponent dp(graph, component, cost_model, rows_of, tree.stats, nullptr);
      dp.run();
      roots.push_back(dp.build(tree));
    }
  }
  tree.root = join_by_cross_products(tree, roots, graph, cost_model, rows_of);
  return tree;
}

}  // namespace hindsight::joinorder
