#include "mapper/union_find.hpp"

#include <random>
#include <vector>

#include <boost/pending/disjoint_sets.hpp>
#include <gtest/gtest.h>

namespace hindsight::mapper {
namespace {

// link_roots applies disjoint_sets::link's union by rank itself: after every union, every id has the same
// representative as in Boost's disjoint_sets given the same unions (the same root is chosen each time).
TEST(UnionFindTest, LinkRootsChoosesTheRootsBoostChooses) {
  constexpr uint32_t kIds = 2'000;
  UnionFind uf;
  std::vector<uint8_t> rank(kIds, 0);
  std::vector<uint32_t> parent(kIds);
  boost::disjoint_sets<uint8_t*, uint32_t*> reference(rank.data(), parent.data());
  for (uint32_t i = 0; i < kIds; ++i) {
    EXPECT_EQ(uf.add(), i);
    reference.make_set(i);
  }
  std::mt19937 rng(11);
  size_t unions = 0;
  for (int step = 0; step < 3'000; ++step) {
    const uint32_t a = rng() % kIds, b = rng() % kIds;
    const uint32_t ra = uf.find(a), rb = uf.find(b);
    ASSERT_EQ(ra, reference.find_set(a));
    ASSERT_EQ(rb, reference.find_set(b));
    if (ra == rb) continue;
    const uint32_t root = uf.link_roots(ra, rb);
    reference.link(ra, rb);
    ++unions;
    EXPECT_EQ(root, reference.find_set(a));
    EXPECT_EQ(uf.find(a), root);
    EXPECT_EQ(uf.find(b), root);
  }
  EXPECT_GT(unions, 1'000u);
  for (uint32_t i = 0; i < kIds; ++i) EXPECT_EQ(uf.find(i), reference.find_set(i)) << i;
}

}  // namespace
}  // namespace hindsight::mapper
