#include "stats_store/signature_aggregate.hpp"

#include <gtest/gtest.h>

#include "tests/unit/stats_store/stats_builders.hpp"

namespace hindsight::stats {
namespace {

using testing::stat;

TEST(SignatureAggregateTest, FoldsExactObservations) {
  SignatureAggregate a;
  a.fold(stat(1, 100), false, 10, {});
  a.fold(stat(1, 300), false, 20, {});
  a.fold(stat(1, 200), false, 30, {});
  EXPECT_EQ(a.observations, 3u);
  EXPECT_EQ(a.exact_observations, 3u);
  EXPECT_EQ(a.last_rows, 200);
  EXPECT_EQ(a.min_rows, 100);
  EXPECT_EQ(a.max_rows, 300);
  EXPECT_DOUBLE_EQ(a.mean_rows(), 200);
  EXPECT_EQ(a.first_seen_ms, 10);
  EXPECT_EQ(a.last_seen_ms, 30);
  EXPECT_FALSE(a.lower_bound_only());
  auto r = a.answer();
  EXPECT_EQ(r.rows, 200);  // the newest exact count, not the mean
  EXPECT_FALSE(r.lower_bound);
  EXPECT_EQ(r.observations, 3u);
  EXPECT_EQ(r.bytes, 1600u);
}

TEST(SignatureAggregateTest, LowerBoundNeverOverwritesOrLowersAnExactCount) {
  SignatureAggregate a;
  a.fold(stat(1, 500), false, 1, {});
  a.fold(stat(1, 10), true, 2, {});    // a LIMIT cut it short
  a.fold(stat(1, 9000), true, 3, {});  // bounds never replace a count either way
  EXPECT_EQ(a.observations, 3u);
  EXPECT_EQ(a.exact_observations, 1u);
  auto r = a.answer();
  EXPECT_EQ(r.rows, 500);
  EXPECT_FALSE(r.lower_bound);
  EXPECT_EQ(a.min_rows, 500);
  EXPECT_EQ(a.last_bytes, 4000u);  // the cut-short attempts' bytes do not replace the complete one's
}

TEST(SignatureAggregateTest, LowerBoundOnlyAnswersTheLargestBoundUntilAnExactCountArrives) {
  SignatureAggregate a;
  a.fold(stat(1, 40), true, 1, {});
  a.fold(stat(1, 70), true, 2, {});
  a.fold(stat(1, 50), true, 3, {});
  ASSERT_TRUE(a.lower_bound_only());
  auto r = a.answer();
  EXPECT_EQ(r.rows, 70);
  EXPECT_TRUE(r.lower_bound);
  EXPECT_LT(r.confidence, 1);
  a.fold(stat(1, 60), false, 4, {});  // an exact count replaces lower-bound-only state, even a smaller one
  r = a.answer();
  EXPECT_FALSE(r.lower_bound);
  EXPECT_EQ(r.rows, 60);
  EXPECT_EQ(r.observations, 1u);
  EXPECT_EQ(a.min_rows, 60);
  EXPECT_EQ(a.max_rows, 60);
}

TEST(SignatureAggregateTest, ConfidenceFallsWhenObservationsDisagree) {
  SignatureAggregate same, spread;
  for (double r : {100.0, 100.0}) same.fold(stat(1, r), false, 1, {});
  for (double r : {100.0, 400.0}) spread.fold(stat(1, r), false, 1, {});
  EXPECT_DOUBLE_EQ(same.answer().confidence, 1.0);
  EXPECT_NEAR(spread.answer().confidence, 1.0 / 3.0, 1e-9);  // a factor 4 apart
  SignatureAggregate templ;
  templ.fold(stat(1, 100, {"t"}, false, StatsSource::KeyKind::Template), false, 1, {});
  EXPECT_DOUBLE_EQ(templ.answer().confidence, 0.5);
}

TEST(SignatureAggregateTest, AnotherSignatureVersionStartsAfresh) {
  SignatureAggregate a;
  auto old = stat(1, 100);
  old.signature_version = sig::SIGNATURE_VERSION - 1;
  a.fold(old, false, 1, {});
  a.fold(old, false, 2, {});
  a.fold(stat(1, 7), false, 3, {});
  EXPECT_EQ(a.signature_version, sig::SIGNATURE_VERSION);
  EXPECT_EQ(a.observations, 1u);
  EXPECT_EQ(a.max_rows, 7);
}

TEST(SignatureAggregateTest, MergeAddsCountsAndTakesTheLaterFigures) {
  SignatureAggregate a, b;
  a.fold(stat(1, 100), false, 10, {{"t", "v1", 5}});
  b.fold(stat(1, 300), false, 20, {{"t", "v2", 6}});
  b.fold(stat(1, 5), true, 21, {{"t", "v2", 6}});
  a.merge(b);
  EXPECT_EQ(a.observations, 3u);
  EXPECT_EQ(a.exact_observations, 2u);
  EXPECT_EQ(a.last_rows, 300);
  EXPECT_EQ(a.min_rows, 100);
  EXPECT_EQ(a.first_seen_ms, 10);
  EXPECT_EQ(a.last_seen_ms, 21);
  ASSERT_EQ(a.inputs.size(), 1u);
  EXPECT_EQ(a.inputs[0].data_version, "v2");
}

TEST(StalenessTest, SameVersionIsUsedWhateverTheRows) {
  EXPECT_TRUE(usable_now({{"t", "v1", 100}}, {{"t", "v1", 5000}}, 0.1));
}

TEST(StalenessTest, NewVersionWithSmallDriftIsUsed) {
  EXPECT_TRUE(usable_now({{"t", "v1", 1000}}, {{"t", "v2", 1100}}, 0.1));  // exactly 10 %
  EXPECT_TRUE(usable_now({{"t", "v1", 1000}}, {{"t", "v2", 950}}, 0.1));
}

TEST(StalenessTest, NewVersionWithLargeDriftIsIgnored) {
  EXPECT_FALSE(usable_now({{"t", "v1", 1000}}, {{"t", "v2", 1101}}, 0.1));
  EXPECT_FALSE(usable_now({{"t", "v1", 1000}}, {{"t", "v2", 800}}, 0.1));
  EXPECT_FALSE(usable_now({{"t", "v1", 0}}, {{"t", "v2", 2}}, 0.1));  // rows_then floored at 1
}

TEST(StalenessTest, EveryInputMustBeAmongTheTables) {
  EXPECT_FALSE(usable_now({{"t", "v1", 10}, {"u", "v1", 10}}, {{"t", "v1", 10}}, 0.1));
  EXPECT_TRUE(usable_now({{"t", "v1", 10}, {"u", "v1", 10}}, {{"u", "v1", 10}, {"t", "v1", 10}, {"w", "x", 1}}, 0.1));
}

TEST(InputVersionsTest, TakesTheAttemptsVersionsOfTheNamedTables) {
  auto v = input_versions({"b", "z"}, {{"a", "1", 1}, {"b", "2", 2}});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], (TableVersion{"b", "2", 2}));
  EXPECT_EQ(v[1], (TableVersion{"z", "", 0}));
}

}  // namespace
}  // namespace hindsight::stats
