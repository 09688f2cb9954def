#include "mapper/union_find.hpp"

namespace hindsight::mapper {

uint32_t UnionFind::add() {
  auto id = static_cast<uint32_t>(parent_.size());
  // What disjoint_sets::make_set(id) does (parent = itself, rank 0), written straight into the vectors.
  parent_.push_back(id);
  rank_.push_back(0);
  return id;
}

void UnionFind::reserve(size_t n) {
  parent_.reserve(n);
  rank_.reserve(n);
}

}  // namespace hindsight::mapper
