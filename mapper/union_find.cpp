#include "mapper/union_find.hpp"

#include <boost/pending/disjoint_sets.hpp>

namespace hindsight::mapper {

namespace {

using Sets = boost::disjoint_sets<uint8_t*, uint32_t*>;

}  // namespace

uint32_t UnionFind::add() {
  auto id = static_cast<uint32_t>(parent_.size());
  // What disjoint_sets::make_set(id) does (parent = itself, rank 0), written straight into the vectors.
  parent_.push_back(id);
  rank_.push_back(0);
  return id;
}

uint32_t UnionFind::find(uint32_t x) const {
  // find_set on a const object: path compression only rewrites parent_ (mutable); rank_ is not touched.
  auto* rank = const_cast<uint8_t*>(rank_.data());
  return Sets(rank, parent_.data()).find_set(x);
}

uint32_t UnionFind::link_roots(uint32_t ra, uint32_t rb) {
  Sets(rank_.data(), parent_.data()).link(ra, rb);
  // After link one root points at the other: the union's root is whichever still points at itself.
  return parent_[ra] == ra ? ra : rb;
}

void UnionFind::reserve(size_t n) {
  parent_.reserve(n);
  rank_.reserve(n);
}

}  // namespace hindsight::mapper
