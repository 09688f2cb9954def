#include "mapper/plan_mapper.hpp"

#include <numeric>
#include <random>

#include <gtest/gtest.h>

namespace hindsight::mapper {
namespace {

// Deliberately naive reference: no rank, path halving only.
struct ReferenceUnionFind {
  explicit ReferenceUnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  uint32_t find(uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(uint32_t a, uint32_t b) { parent[find(a)] = find(b); }
  std::vector<uint32_t> parent;
};

// Not a timing assertion (that is bench/mapper_bench.cpp): 1M links with interleaved finds over 200k entities must
// complete and agree with the reference, entity by entity.
TEST(MapperScaleTest, MillionLinksOverTwoHundredThousandEntitiesMatchReference) {
  constexpr uint32_t kEntities = 200'000;
  constexpr uint32_t kLinks = 1'000'000;
  PlanMapper m;
  ReferenceUnionFind ref(kEntities);
  for (uint32_t i = 0; i < kEntities; ++i) m.add(i % 2 ? EntityKind::Logical : EntityKind::Physical, "op");
  const PlanMapper::StageId rewrite = m.stage_id("rewrite"), physical = m.stage_id("physical");

  // Links between near neighbours (i, i+1..i+2), so the final partition has many groups rather than one giant one.
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> pick(0, kEntities - 1);
  std::uniform_int_distribution<uint32_t> step(1, 2);
  size_t agree = 0, finds = 0;
  for (uint32_t i = 0; i < kLinks; ++i) {
    uint32_t a = pick(rng);
    uint32_t b = std::min(kEntities - 1, a + step(rng));
    if (rng() % 8 == 0) std::swap(a, b);
    if (i % 4 == 0) {  // skip some links: more, smaller groups
      uint32_t x = pick(rng), y = std::min(kEntities - 1, x + 1);
      agree += m.same_group(x, y) == (ref.find(x) == ref.find(y));
      ++finds;
      continue;
    }
    EXPECT_NE(m.link(a, b, i % 3 ? rewrite : physical), LinkOutcome::Refused);
    ref.unite(a, b);
  }
  EXPECT_EQ(agree, finds);

  std::vector<uint32_t> ref_min(kEntities, UINT32_MAX);
  for (uint32_t i = 0; i < kEntities; ++i) ref_min[ref.find(i)] = std::min(ref_min[ref.find(i)], i);
  size_t mismatches = 0, ref_groups = 0;
  for (uint32_t i = 0; i < kEntities; ++i) {
    mismatches += m.smallest_member(i) != ref_min[ref.find(i)];
    ref_groups += ref.find(i) == i;
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(m.group_count(), ref_groups);
  EXPECT_GT(ref_groups, 100u);  // the partition is not trivial

  // A smaller sample through the dense-id API: same group <=> same group id, and members agree.
  for (int s = 0; s < 2'000; ++s) {
    uint32_t x = pick(rng), y = pick(rng);
    EXPECT_EQ(m.group_of(x) == m.group_of(y), ref.find(x) == ref.find(y));
    for (EntityId member : m.members(m.group_of(x))) EXPECT_EQ(ref.find(member), ref.find(x));
  }
}

}  // namespace
}  // namespace hindsight::mapper
