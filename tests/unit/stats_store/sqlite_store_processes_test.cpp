// The store shared by processes: concurrent writers lose nothing and see no SQLITE_BUSY, and a writer
// killed at any moment leaves a sound file holding every attempt it saw committed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include "stats_store/sqlite_store.hpp"
#include "tests/unit/stats_store/stats_builders.hpp"

namespace hindsight::stats {
namespace {

using testing::attempt;
using testing::sig_of;
using testing::stat;
using testing::TempDir;

const std::vector<TableVersion> kT = {{"t", "v1", 1000}};

std::string integrity(const std::string& path) {
  sqlite3* db = nullptr;
  std::string out = "<cannot open>";
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

// A child's attempt number n: its own signature plus signatures every child shares.
AttemptStats child_attempt(uint64_t child, uint64_t n, int shared) {
  std::vector<RuntimeStats> st;
  st.push_back(stat(1, double(n)));
  for (int i = 0; i < shared; ++i) st.push_back(stat(2 + i, double(n + i)));
  st.push_back(stat((child << 24) | n, double(n)));
  return attempt(std::move(st));
}

TEST(SqliteStoreProcessTest, EightProcessesWritingAndReadingLoseNoAttempt) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  constexpr int kChildren = 8, kAttempts = 100;
  std::vector<pid_t> pids;
  for (int c = 1; c <= kChildren; ++c) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int bad = 0;
      {
        SqliteStatsStore store(path);
        for (int n = 1; n <= kAttempts; ++n) {
          store.snapshot(kT, 0.1);
          store.record(child_attempt(c, n, 20));
          for (const auto& w : store.take_warnings()) {
            fprintf(stderr, "child %d: %s\n", c, w.c_str());
            bad = 1;
          }
        }
      }
      ::_exit(bad);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a child warned (SQLITE_BUSY?) or died";
  }
  EXPECT_EQ(integrity(path), "ok");
  SqliteStatsStore store(path);
  auto shared = store.show(sig_of(1).hex());
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_EQ(shared[0].aggregate.observations, uint64_t{kChildren * kAttempts});
  EXPECT_EQ(store.summary().attempts, uint64_t{kChildren * kAttempts});
  auto src = store.snapshot(kT, 0.1);
  for (uint64_t c = 1; c <= kChildren; ++c)
    for (uint64_t n = 1; n <= kAttempts; ++n)
      EXPECT_TRUE(src->find(StatsSource::KeyKind::Exact, sig_of((c << 24) | n))) << c << "/" << n;
  EXPECT_TRUE(store.take_warnings().empty());
}

// HINDSIGHT_STORE_CRASH_ROUNDS overrides the number of kills (scripts/store-crash-stress.sh: 100).
TEST(SqliteStoreProcessTest, SigkillMidWriteLosesNoCommittedAttempt) {
  int rounds = 10;
  if (const char* env = std::getenv("HINDSIGHT_STORE_CRASH_ROUNDS")) rounds = std::max(1, std::atoi(env));
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  TempDir dir;
  const auto path = dir.file("stats.db");
  std::vector<std::pair<uint64_t, uint64_t>> committed;  // (round, n)
  for (int round = 1; round <= rounds; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(fds[0]);
      SqliteStatsStore store(path);
      for (uint64_t n = 1;; ++n) {
        store.record(child_attempt(round, n, 60));
        // Reported only once COMMIT returned without a warning.
        const uint64_t report = store.take_warnings().empty() ? n : 0;
        if (::write(fds[1], &report, sizeof report) != sizeof report) ::_exit(3);
      }
    }
    ::close(fds[1]);
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(30, 200)(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status)) << "the writer ended before it was killed";
    uint64_t n = 0;
    while (::read(fds[0], &n, sizeof n) == sizeof n) {
      ASSERT_NE(n, 0u) << "the writer saw a warning in round " << round;
      committed.emplace_back(round, n);
    }
    ::close(fds[0]);
    ASSERT_EQ(integrity(path), "ok") << "round " << round;
  }
  ASSERT_FALSE(committed.empty());
  SqliteStatsStore store(path);
  EXPECT_TRUE(store.usable());
  auto src = store.snapshot(kT, 0.1);
  for (auto [round, n] : committed)
    EXPECT_TRUE(src->find(StatsSource::KeyKind::Exact, sig_of((round << 24) | n))) << round << "/" << n;
  EXPECT_GE(store.show(sig_of(1).hex()).at(0).aggregate.observations, committed.size());
  EXPECT_TRUE(store.take_warnings().empty());
}

}  // namespace
}  // namespace hindsight::stats
