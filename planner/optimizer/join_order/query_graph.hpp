#pragma once
#include <cstdint>
#include <vector>

#include "planner/optimizer/join_order/rel_set.hpp"

namespace hindsight::joinorder {

/// One input of the join: a base table, a filtered scan or any already-planned sub-plan.
struct Relation {
  double cardinality = 0;  ///< Estimated rows of the relation on its own.
  int64_t tag = 0;         ///< Opaque to the enumerator; the caller maps it back to its plan node.
};

/// A join predicate between two disjoint, non-empty relation sets. Usually each side is one relation; a predicate
/// such as `a.x + b.y = c.z` has the side {a, b}.
struct JoinEdge {
  RelSet left = 0;
  RelSet right = 0;
  double selectivity = 1;  ///< Fraction of the cross product of its relations that the predicate keeps.
  int tag = -1;            ///< Opaque to the enumerator (the caller's predicate id).

  /// Every relation the predicate references.
  RelSet relations() const { return left | right; }
};

/// The abstract query graph the join enumerators work on: relations 0..n-1 (n <= 64) and join predicates.
///
/// Connectivity: an edge connects every pair of the relations it references. For simple edges (one relation per
/// side) that is the usual query graph. A complex edge ({a, b}, {c}) makes a, b and c mutually adjacent, so the
/// enumerators may join a with b (or a with c) before the third relation is present; such a join is a cross
/// product in effect, and its cardinality (no predicate inside the set) lets the cost model price it as one. The
/// predicate itself is applied by the lowest join whose set contains all of its relations.
class QueryGraph {
 public:
  static constexpr int kMaxRelations = 64;

  /// Adds relation number relation_count() and returns that number. Throws std::invalid_argument when the graph
  /// is full or `cardinality` is negative or not finite.
  int add_relation(double cardinality, int64_t tag = 0);

  /// Adds a join predicate and returns its edge index. Throws std::invalid_argument when a side is empty, the sides
  /// overlap, a side names an unknown relation, or `selectivity` is negative or not finite.
  int add_edge(RelSet left, RelSet right, double selectivity, int edge_tag = -1);

  int relation_count() const { return static_cast<int>(relations_.size()); }
  const Relation& relation(int rel) const { return relations_.at(rel); }
  const std::vector<Relation>& relations() const { return relations_; }
  const std::vector<JoinEdge>& edges() const { return edges_; }

  /// All relations of the graph.
  RelSet all() const { return first_rels(relation_count()); }

  /// Relations adjacent to relation `rel` (never `rel` itself).
  RelSet adjacent(int rel) const { return adjacency_[rel]; }

  /// N(set): relations outside `set` that are adjacent to a relation of `set`.
  RelSet neighbourhood(RelSet set) const;

  /// N(set) minus `excluded`.
  RelSet neighbourhood(RelSet set, RelSet excluded) const { return neighbourhood(set) & ~excluded; }

  /// True when `set` is non-empty and its relations form one connected subgraph.
  bool is_connected(RelSet set) const;

  /// True when an edge links a relation of `a` to a relation of `b` (a join of the two is no cross product).
  bool are_joined(RelSet a, RelSet b) const { return (neighbourhood(a) & b) != 0; }

  /// The connected components of the whole graph, ordered by their lowest relation.
  std::vector<RelSet> components() const;

  /// Edges a join of the disjoint sets `a` and `b` applies: those inside a | b but inside neither a nor b.
  std::vector<int> edges_between(RelSet a, RelSet b) const;

  /// Edges whose relations all lie inside `set`.
  std::vector<int> edges_within(RelSet set) const;

 private:
  std::vector<Relation> relations_;
  std::vector<JoinEdge> edges_;
  std::vector<RelSet> adjacency_;
};

}  // namespace hindsight::joinorder
