#include "planner/exec/fragment_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "planner/common/error.hpp"

namespace hindsight {
namespace {

using Order = std::vector<size_t>;

/// The peak of running `order` (what the order minimises), replayed from the footprints as a tree.
double replayed_peak(const std::vector<std::vector<size_t>>& inputs, const std::vector<FragmentFootprint>& fp,
                     const Order& order) {
  double held = 0, peak = 0;
  for (size_t i : order) {
    peak = std::max(peak, held + fp[i].run);
    for (size_t d : inputs[i])
      if (!fp[d].kept) held -= fp[d].output;
    held += fp[i].output;
  }
  return peak;
}

TEST(FragmentOrderTest, WithoutFootprintsEachFragmentRunsRightAfterItsInputs) {
  // 0 reads 1 and 2; 1 reads 3 and 4; 2 reads 5. Breadth-first (the old order) ran 3, 4, 5 first and held all
  // three leaf buffers at once; depth-first runs 1 between 4 and 5.
  std::vector<std::vector<size_t>> inputs = {{1, 2}, {3, 4}, {5}, {}, {}, {}};
  EXPECT_EQ(memory_frugal_order(inputs, {}), (Order{3, 4, 1, 5, 2, 0}));
}

TEST(FragmentOrderTest, TheInputWithTheLargerPeakMinusResidualRunsFirst) {
  // 0 reads 1 (a join that peaks at 100 and leaves 10) and 2 (a scan that leaves 60).
  std::vector<std::vector<size_t>> inputs = {{2, 1}, {3, 4}, {}, {}, {}};
  std::vector<FragmentFootprint> fp(5);
  fp[0] = {5, 0, false};
  fp[1] = {50, 10, false};  // reads 3 and 4 (25 each): peaks at 100
  fp[2] = {60, 60, false};
  fp[3] = {25, 25, false};
  fp[4] = {25, 25, false};
  Order order = memory_frugal_order(inputs, fp);
  EXPECT_EQ(order, (Order{3, 4, 1, 2, 0}));
  // Listing order (2's buffer held while 1's subtree runs) peaks higher.
  EXPECT_EQ(replayed_peak(inputs, fp, order), 100);
  EXPECT_EQ(replayed_peak(inputs, fp, {2, 3, 4, 1, 0}), 160);

  // When 2's subtree is the one that peaks high and leaves little, it goes first.
  fp[2] = {300, 1, false};
  EXPECT_EQ(memory_frugal_order(inputs, fp), (Order{2, 3, 4, 1, 0}));
}

TEST(FragmentOrderTest, AFragmentReadBySeveralRunsOnceWhereItIsFirstNeeded) {
  // A CTE (3, kept to the end) read by 1 and 2, both read by 0; 4 is an unread fragment (a CTE nothing reads).
  std::vector<std::vector<size_t>> inputs = {{1, 2}, {3}, {3, 5}, {}, {}, {}};
  std::vector<FragmentFootprint> fp(6);
  fp[3].kept = true;
  Order order = memory_frugal_order(inputs, fp);
  EXPECT_EQ(order, (Order{3, 1, 5, 2, 0, 4}));
  EXPECT_EQ(order.size(), inputs.size());
}

TEST(FragmentOrderTest, EveryFragmentFollowsItsInputsOnRandomDags) {
  uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 33;
  };
  for (int round = 0; round < 200; ++round) {
    const size_t n = 1 + next() % 12;
    std::vector<std::vector<size_t>> inputs(n);
    std::vector<FragmentFootprint> fp(n);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j)
        if (next() % 3 == 0) inputs[i].push_back(j);
      fp[i] = {static_cast<double>(next() % 100), static_cast<double>(next() % 50), next() % 5 == 0};
    }
    Order order = memory_frugal_order(inputs, fp);
    ASSERT_EQ(order.size(), n);
    std::vector<size_t> pos(n, n);
    for (size_t k = 0; k < n; ++k) pos[order[k]] = k;
    for (size_t i = 0; i < n; ++i) {
      ASSERT_LT(pos[i], n);
      for (size_t d : inputs[i]) EXPECT_LT(pos[d], pos[i]) << "round " << round;
    }
  }
}

TEST(FragmentOrderTest, ACycleOrAnUnknownInputIsInternal) {
  EXPECT_THROW(memory_frugal_order({{1}, {0}}, {}), Error);
  EXPECT_THROW(memory_frugal_order({{}, {2}, {1}}, {}), Error);
  EXPECT_THROW(memory_frugal_order({{7}}, {}), Error);
  EXPECT_THROW(memory_frugal_order({{}, {}}, {FragmentFootprint{}}), Error);
}

}  // namespace
}  // namespace hindsight
