#include "stats_store/memory_repository.hpp"

#include <gtest/gtest.h>

#include "tests/unit/stats_store/stats_builders.hpp"

namespace hindsight::stats {
namespace {

using testing::attempt;
using testing::sig_of;
using testing::stat;

const std::vector<TableVersion> kT = {{"t", "v1", 1000}};

TEST(MemoryStatsRepositoryTest, SnapshotAnswersWhatWasRecorded) {
  MemoryStatsRepository repo;
  repo.record(attempt({stat(1, 100), stat(2, 30, {"t"}, false, StatsSource::KeyKind::JoinSet)}));
  repo.record(attempt({stat(1, 120)}));
  auto src = repo.snapshot(kT, 0.1);
  auto r = src->find(StatsSource::KeyKind::Exact, sig_of(1));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rows, 120);
  EXPECT_EQ(r->observations, 2u);
  EXPECT_FALSE(src->find(StatsSource::KeyKind::Exact, sig_of(2)));  // kinds are separate key spaces
  ASSERT_TRUE(src->find(StatsSource::KeyKind::JoinSet, sig_of(2)));
  EXPECT_FALSE(src->empty());
  EXPECT_TRUE(repo.take_warnings().empty());
}

TEST(MemoryStatsRepositoryTest, FailedAttemptsKeepWhatFinishedAndBoundTheRest) {
  // In a failed attempt the operators that did not finish are lower bounds; one that ran to exhaustion (a
  // build side before the probe failed) is an exact count.
  MemoryStatsRepository repo;
  auto cut = stat(1, 100);
  cut.lower_bound = true;
  auto a = attempt({cut, stat(2, 40)});
  a.succeeded = false;
  repo.record(a);
  auto src = repo.snapshot(kT, 0.1);
  auto r = src->find(StatsSource::KeyKind::Exact, sig_of(1));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->lower_bound);
  EXPECT_EQ(r->rows, 100);
  auto finished = src->find(StatsSource::KeyKind::Exact, sig_of(2));
  ASSERT_TRUE(finished);
  EXPECT_FALSE(finished->lower_bound);
  EXPECT_EQ(finished->rows, 40);
}

TEST(MemoryStatsRepositoryTest, SnapshotLeavesOutStaleAndForeignTableObservations) {
  MemoryStatsRepository repo;
  repo.record(attempt({stat(1, 100, {"t"}), stat(2, 5, {"t", "u"})}, {{"t", "v1", 1000}, {"u", "v1", 10}}));
  EXPECT_TRUE(repo.snapshot({{"t", "v1", 1000}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));
  EXPECT_FALSE(repo.snapshot({{"t", "v1", 1000}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(2)));  // u absent
  EXPECT_TRUE(repo.snapshot({{"t", "v2", 1100}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));   // 10 %
  EXPECT_FALSE(repo.snapshot({{"t", "v2", 1200}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));  // 20 %
  EXPECT_TRUE(repo.snapshot({{"t", "v1", 99999}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));  // same version
}

TEST(MemoryStatsRepositoryTest, OtherSignatureVersionsAreIgnoredWithOneWarningPerSnapshot) {
  MemoryStatsRepository repo;
  auto old1 = stat(1, 100), old2 = stat(2, 100), older = stat(3, 1);
  old1.signature_version = old2.signature_version = sig::SIGNATURE_VERSION - 1;
  older.signature_version = sig::SIGNATURE_VERSION - 2;
  repo.record(attempt({old1, old2, older, stat(4, 9)}));
  repo.record(attempt({old1}));
  auto src = repo.snapshot(kT, 0.1);
  EXPECT_FALSE(src->find(StatsSource::KeyKind::Exact, sig_of(1)));
  EXPECT_FALSE(src->find(StatsSource::KeyKind::Exact, sig_of(3)));
  EXPECT_TRUE(src->find(StatsSource::KeyKind::Exact, sig_of(4)));
  auto w = repo.take_warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("4 observations of signature version"), std::string::npos) << w[0];
  EXPECT_TRUE(repo.take_warnings().empty());
  repo.snapshot(kT, 0.1);
  EXPECT_EQ(repo.take_warnings().size(), 1u);  // again for the next snapshot
}

TEST(MemoryStatsRepositoryTest, BoundedRepositoryEvictsTheLeastRecentlyRecorded) {
  MemoryStatsRepository repo(3);
  repo.record(attempt({stat(1, 1), stat(2, 2), stat(3, 3)}));
  repo.record(attempt({stat(1, 1)}));  // 1 is fresh again; 2 is now the oldest
  repo.record(attempt({stat(4, 4)}));
  EXPECT_EQ(repo.size(), 3u);
  EXPECT_TRUE(repo.aggregate(StatsSource::KeyKind::Exact, sig_of(1)));
  EXPECT_FALSE(repo.aggregate(StatsSource::KeyKind::Exact, sig_of(2)));
  EXPECT_TRUE(repo.aggregate(StatsSource::KeyKind::Exact, sig_of(3)));
  EXPECT_TRUE(repo.aggregate(StatsSource::KeyKind::Exact, sig_of(4)));
  for (uint64_t i = 10; i < 1000; ++i) repo.record(attempt({stat(i, 1)}));
  EXPECT_EQ(repo.size(), 3u);
}

TEST(MemoryStatsRepositoryTest, UnboundedRepositoryKeepsEverything) {
  MemoryStatsRepository repo;
  for (uint64_t i = 0; i < 500; ++i) repo.record(attempt({stat(i, 1)}));
  EXPECT_EQ(repo.size(), 500u);
  EXPECT_EQ(static_cast<const MemoryStatsSource&>(*repo.snapshot(kT, 0.1)).size(), 500u);
}

}  // namespace
}  // namespace hindsight::stats
