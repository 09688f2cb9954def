#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/pending/disjoint_sets.hpp>

#include "mapper/append.hpp"

namespace hindsight::mapper {

/// Growable union-find over dense ids 0..n-1: Boost `disjoint_sets` (union by rank, full path compression) with
/// plain vectors as its rank and parent property maps, so ids can be added at any time.
///
/// Boost's disjoint_sets holds its property maps by value; raw pointers into the vectors are valid property maps,
/// so a disjoint_sets view is rebuilt (two pointers, free) per operation instead of keeping iterators that a
/// vector reallocation would invalidate.
class UnionFind {
 public:
  /// Adds a singleton set and returns its id (== previous size()). Inline: entities are added by the hundred per query.
  [[gnu::always_inline]] uint32_t add() {
    const auto id = static_cast<uint32_t>(parent_.size());
    // What disjoint_sets::make_set(id) does (parent = itself, rank 0), written straight into the vectors.
    detail::append(parent_, id);
    detail::append(rank_, uint8_t{0});
    return id;
  }

  /// Representative of x's set. Compresses paths, hence logically const only.
  uint32_t find(uint32_t x) const {
    // find_set on a const object: path compression only rewrites parent_ (mutable); rank_ is not touched.
    if (parent_[x] == x) return x;  // most finds are of a root: no view to build
    return Sets(const_cast<uint8_t*>(rank_.data()), parent_.data()).find_set(x);
  }

  /// Unions the sets whose *roots* are ra and rb (ra != rb); returns the root of the union.
  uint32_t link_roots(uint32_t ra, uint32_t rb) {
    // disjoint_sets::link's union by rank, rule for rule (the same trees), without the find_set of each root that
    // link makes first: the caller has just found them.
    if (rank_[ra] > rank_[rb]) {
      parent_[rb] = ra;
      return ra;
    }
    parent_[ra] = rb;
    if (rank_[ra] == rank_[rb]) ++rank_[rb];
    return rb;
  }

  /// Number of ids.
  size_t size() const { return parent_.size(); }

  /// Pre-allocates room for n ids.
  void reserve(size_t n);
  /// Removes every id, keeping the memory.
  void clear() {
    parent_.clear();
    rank_.clear();
  }

 private:
  using Sets = boost::disjoint_sets<uint8_t*, uint32_t*>;

  mutable std::vector<uint32_t> parent_;
  std::vector<uint8_t> rank_;  // rank <= log2(n) < 32
};

}  // namespace hindsight::mapper
