#include "mapper/union_find.hpp"

namespace hindsight::mapper {

void UnionFind::reserve(size_t n) {
  parent_.reserve(n);
  rank_.reserve(n);
}

}  // namespace hindsight::mapper
