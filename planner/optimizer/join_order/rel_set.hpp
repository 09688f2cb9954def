#pragma once
#include <bit>
#include <cstdint>

namespace hindsight::joinorder {

/// A set of relations of one QueryGraph: bit i stands for relation i (so at most 64 relations).
using RelSet = uint64_t;

/// The set holding relation `rel` only.
constexpr RelSet rel_bit(int rel) { return RelSet{1} << rel; }

/// Number of relations in `set`.
constexpr int rel_count(RelSet set) { return std::popcount(set); }

/// Index of the lowest relation in a non-empty `set`.
constexpr int lowest_rel(RelSet set) { return std::countr_zero(set); }

/// Index of the highest relation in a non-empty `set`.
constexpr int highest_rel(RelSet set) { return 63 - std::countl_zero(set); }

/// Relations 0..rel inclusive (the paper's B_i).
constexpr RelSet rels_up_to(int rel) { return rel >= 63 ? ~RelSet{0} : (RelSet{1} << (rel + 1)) - 1; }

/// The first `n` relations, 0..n-1.
constexpr RelSet first_rels(int n) { return n >= 64 ? ~RelSet{0} : (RelSet{1} << n) - 1; }

/// True when `a` is a subset of `b`.
constexpr bool is_subset(RelSet a, RelSet b) { return (a & ~b) == 0; }

/// Calls `fn(rel)` for every relation of `set`, lowest first.
template <class Fn>
void for_each_rel(RelSet set, Fn&& fn) {
  while (set != 0) {
    fn(lowest_rel(set));
    set &= set - 1;
  }
}

/// Calls `fn(subset)` for every non-empty subset of `set` in increasing numeric order; a subset is therefore visited
/// before each of its supersets, which keeps the dynamic-programming order valid.
template <class Fn>
void for_each_nonempty_subset(RelSet set, Fn&& fn) {
  RelSet sub = 0;
  while ((sub = (sub - set) & set) != 0) fn(sub);
}

}  // namespace hindsight::joinorder
