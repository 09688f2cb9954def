#pragma once
#include <cstdint>
#include <vector>

#include "planner/optimizer/join_order/rel_set.hpp"

namespace hindsight::joinorder {

/// One input of the join: a base table, a filtered scan or any already-planned sub-plan.
struct Relation {
  double cardinality = 0;  ///< Estimated rows of the relation on its own.
  int64_t tag = 0;         ///< Opaque to the enumerator; the caller maps it back to its plan node.
  /// A member: the right input of a semi, anti or null-aware anti join (QueryGraph::add_semi_member) or the
  /// null-producing side of a LEFT join (QueryGraph::add_left_member, then `left` is true too).
  bool semi = false;
  bool left = false;    ///< A LEFT member (the null-producing side of a LEFT join).
  RelSet required = 0;  ///< For a member: the relations its predicate reads (its TES), all below it.
};

/// A join predicate between two disjoint, non-empty relation sets. Usually each side is one relation; a predicate
/// such as `a.x + b.y = c.z` has the side {a, b}.
struct JoinEdge {
  RelSet left = 0;
  RelSet right = 0;
  double selectivity = 1;  ///< Fraction of the cross product of its relations that the predicate keeps.
  int tag = -1;            ///< Opaque to the enumerator (the caller's predicate id).
  /// The predicate of a member: right = {member}; selectivity = share of left rows kept (a semi member) or rows per
  /// left row, at least 1 (a LEFT member: every left row is kept, with NULLs when nothing matches).
  bool semi = false;

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
///
/// Semi members (the right inputs of semi, anti and null-aware anti joins) are relations joined by one thing only:
/// their semi edge, as the right input, to a set that holds every relation the edge requires (its TES, Moerkotte &
/// Neumann 2013). Such a join outputs the left set's rows that the member keeps, so a set holding a semi member has
/// the rows of the rest times the edge's selectivity, and the member exposes nothing to later joins. Semi and anti
/// joins filter their left rows, so they commute with the inner joins and with each other there: any order that
/// keeps each member above its required relations is the same result. legal_join() is the rule the enumerators
/// obey; every set they build is then "complete" (each member in it has its required relations in it too).
///
/// LEFT members (the null-producing sides of LEFT joins) are joined by the same rule; a set holding one has the rows
/// of the rest times its edge's fanout (at least 1), and its columns.
class QueryGraph {
 public:
  static constexpr int kMaxRelations = 64;

  /// Adds relation number relation_count() and returns that number. Throws std::invalid_argument when the graph
  /// is full or `cardinality` is negative or not finite.
  int add_relation(double cardinality, int64_t tag = 0);

  /// Adds a join predicate and returns its edge index. Throws std::invalid_argument when a side is empty, the sides
  /// overlap, a side names an unknown relation, or `selectivity` is negative or not finite.
  int add_edge(RelSet left, RelSet right, double selectivity, int edge_tag = -1);

  /// Adds a semi member: relation number relation_count() with its own `cardinality` (rows of the right input) and
  /// the semi edge ({required}, {member}) keeping `selectivity` of the left rows; returns the member's number.
  /// Throws std::invalid_argument when `required` is empty, names an unknown relation or a semi member, or when
  /// the numbers are bad as for add_relation / add_edge.
  int add_semi_member(double cardinality, RelSet required, double selectivity, int64_t tag = 0, int edge_tag = -1);

  /// Adds a LEFT member: the null-producing side of a LEFT join whose ON predicate reads the relations `required`
  /// (and the member), with its own `cardinality`; the LEFT edge ({required}, {member}) carries `fanout`, the rows
  /// the join outputs per left row (>= 1: a LEFT join keeps every left row). Joined like a semi member (legal_join):
  /// only by its LEFT join, as the right input, to a set holding `required`. Unlike a semi member it exposes its
  /// columns, but the caller guarantees that no other predicate of the graph reads them (such a LEFT join stays
  /// outside the graph), so every order that keeps it above its required relations is the same result:
  /// (A ⋈ X) ⟕ B = (A ⟕ B) ⋈ X when the ON predicate reads A and B only. Throws as add_semi_member, and when
  /// `fanout` is below 1.
  int add_left_member(double cardinality, RelSet required, double fanout, int64_t tag = 0, int edge_tag = -1);

  /// The members of the graph (semi and LEFT members: the atomic relations joined only by their own join).
  RelSet semi_members() const { return semi_members_; }
  bool is_semi_member(int rel) const { return (semi_members_ >> rel & 1) != 0; }
  /// The LEFT members (a subset of semi_members()): their columns are in the output of every set holding them.
  RelSet left_members() const { return left_members_; }
  bool is_left_member(int rel) const { return (left_members_ >> rel & 1) != 0; }

  /// Whether `left` ⋈ `right` (disjoint, each a complete set) is a join the plan may contain with `left` as its
  /// left input: a semi (or LEFT) join when `right` is one member and `left` holds its required relations, else an
  /// inner join between sets neither of which is a lone member. Always true in a graph without members.
  bool legal_join(RelSet left, RelSet right) const {
    if (semi_members_ == 0) return true;
    if ((left & semi_members_) == left && rel_count(left) == 1) return false;
    if ((right & semi_members_) == right && rel_count(right) == 1)
      return is_subset(relations_[lowest_rel(right)].required, left);
    return true;
  }

  /// True when every semi member in `set` has its required relations in `set` too.
  bool is_complete(RelSet set) const;

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
  RelSet semi_members_ = 0;
  RelSet left_members_ = 0;
};

}  // namespace hindsight::joinorder
