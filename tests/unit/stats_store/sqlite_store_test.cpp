#include "stats_store/sqlite_store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>

#include "stats_store/memory_repository.hpp"
#include "stats_store/store_error.hpp"
#include "tests/unit/stats_store/stats_builders.hpp"

namespace hindsight::stats {
namespace {

using testing::attempt;
using testing::sig_of;
using testing::stat;
using testing::TempDir;
namespace fs = std::filesystem;

const std::vector<TableVersion> kT = {{"t", "v1", 1000}};

bool has_store_error(const std::vector<std::string>& warnings) {
  for (const auto& w : warnings)
    if (w.rfind("STORE_ERROR", 0) == 0) return true;
  return false;
}

std::string sql_text(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  std::string out = "<error>";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

void expect_same(const std::optional<ObservedRows>& a, const std::optional<ObservedRows>& b) {
  ASSERT_EQ(a.has_value(), b.has_value());
  if (!a) return;
  EXPECT_EQ(a->rows, b->rows);
  EXPECT_EQ(a->lower_bound, b->lower_bound);
  EXPECT_EQ(a->observations, b->observations);
  EXPECT_DOUBLE_EQ(a->confidence, b->confidence);
  EXPECT_EQ(a->bytes, b->bytes);
  EXPECT_EQ(a->peak_memory, b->peak_memory);
  EXPECT_EQ(a->build_bytes, b->build_bytes);
}

TEST(SqliteStatsStoreTest, CreatesTheFileAndItsFoldersAndSchema) {
  TempDir dir;
  const auto path = dir.file("a/b/.hindsight/stats.db");
  SqliteStatsStore store(path);
  EXPECT_TRUE(store.writable());
  EXPECT_TRUE(store.take_warnings().empty());
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(sql_text(path, "PRAGMA user_version"), std::to_string(SqliteStatsStore::kSchemaVersion));
  EXPECT_EQ(sql_text(path, "PRAGMA journal_mode"), "wal");
  EXPECT_TRUE(store.snapshot(kT, 0.1)->empty() || !store.snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));
}

TEST(SqliteStatsStoreTest, RoundTripAcrossTwoStoreObjectsOnOneFile) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  {
    SqliteStatsStore writer(path);
    writer.record(attempt({stat(1, 100), stat(2, 7, {"t"}, true), stat(3, 40, {"t"}, false, StatsSource::KeyKind::Template)}));
    writer.record(attempt({stat(1, 150)}));
    EXPECT_TRUE(writer.take_warnings().empty());
  }
  SqliteStatsStore reader(path);
  auto src = reader.snapshot(kT, 0.1);
  EXPECT_EQ(reader.reads(), 1u);
  auto r1 = src->find(StatsSource::KeyKind::Exact, sig_of(1));
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->rows, 150);
  EXPECT_EQ(r1->observations, 2u);
  EXPECT_EQ(r1->bytes, 1200u);
  EXPECT_EQ(r1->peak_memory, 1001);
  auto r2 = src->find(StatsSource::KeyKind::Exact, sig_of(2));
  ASSERT_TRUE(r2);
  EXPECT_TRUE(r2->lower_bound);
  EXPECT_TRUE(src->find(StatsSource::KeyKind::Template, sig_of(3)));
  EXPECT_FALSE(src->find(StatsSource::KeyKind::Exact, sig_of(3)));
  // The store and the memory scope fold alike: same answers for the same attempts.
  MemoryStatsRepository mem;
  mem.record(attempt({stat(1, 100), stat(2, 7, {"t"}, true), stat(3, 40, {"t"}, false, StatsSource::KeyKind::Template)}));
  mem.record(attempt({stat(1, 150)}));
  auto m = mem.snapshot(kT, 0.1);
  expect_same(m->find(StatsSource::KeyKind::Exact, sig_of(1)), r1);
  expect_same(m->find(StatsSource::KeyKind::Exact, sig_of(2)), r2);
}

TEST(SqliteStatsStoreTest, OneReadPerSnapshotWhateverTheStoreHolds) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  std::vector<RuntimeStats> many;
  for (uint64_t i = 0; i < 300; ++i) many.push_back(stat(i, double(i), {"t", "u"}));
  store.record(attempt(many, {{"t", "v1", 1000}, {"u", "v1", 50}}));
  auto src = store.snapshot({{"t", "v1", 1000}, {"u", "v1", 50}}, 0.1);
  EXPECT_EQ(store.reads(), 1u);
  for (uint64_t i = 0; i < 300; ++i) ASSERT_TRUE(src->find(StatsSource::KeyKind::Exact, sig_of(i))) << i;
  store.snapshot(kT, 0.1);
  EXPECT_EQ(store.reads(), 2u);
}

TEST(SqliteStatsStoreTest, StalenessUsesTheLatestObservationsTableVersions) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  store.record(attempt({stat(1, 100)}, {{"t", "v1", 1000}}));
  auto at = [&](std::vector<TableVersion> now) {
    return store.snapshot(now, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)).has_value();
  };
  EXPECT_TRUE(at({{"t", "v1", 1000}}));
  EXPECT_TRUE(at({{"t", "v1", 5000}}));  // same version: used
  EXPECT_TRUE(at({{"t", "v2", 1100}}));  // new version, 10 % drift: used
  EXPECT_FALSE(at({{"t", "v2", 1101}}));  // new version, > 10 %: ignored
  EXPECT_FALSE(at({{"u", "v1", 1000}}));  // its input is not among the tables
  store.record(attempt({stat(1, 120)}, {{"t", "v2", 2000}}));
  EXPECT_TRUE(at({{"t", "v2", 2000}}));
  EXPECT_FALSE(at({{"t", "v1", 1000}}));  // the latest observation saw v2 with 2000 rows
}

TEST(SqliteStatsStoreTest, OtherSignatureVersionsAreIgnoredWithOneWarning) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  auto old1 = stat(1, 100), old2 = stat(2, 100);
  old1.signature_version = old2.signature_version = sig::SIGNATURE_VERSION - 1;
  store.record(attempt({old1, old2, stat(3, 1)}));
  auto src = store.snapshot(kT, 0.1);
  EXPECT_FALSE(src->find(StatsSource::KeyKind::Exact, sig_of(1)));
  EXPECT_TRUE(src->find(StatsSource::KeyKind::Exact, sig_of(3)));
  auto w = store.take_warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("2 observations of signature version"), std::string::npos) << w[0];
  // They can never answer again: gc removes them whatever their age, and the warning goes with them.
  EXPECT_EQ(store.gc(int64_t{365} * 86400000), 2u);
  EXPECT_TRUE(store.snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(3)));
  EXPECT_TRUE(store.take_warnings().empty());
}

TEST(SqliteStatsStoreTest, HistoryIsBoundedAndShowNamesTheQueries) {
  TempDir dir;
  SqliteStatsStore::Options o;
  o.history = 4;
  SqliteStatsStore store(dir.file("stats.db"), o);
  for (int i = 1; i <= 10; ++i) store.record(attempt({stat(1, i)}, kT, 1000 + i, "SELECT " + std::to_string(i)));
  auto d = store.show(sig_of(1).hex());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].aggregate.observations, 10u);
  EXPECT_EQ(d[0].aggregate.canonical_text, "scan(t)#1");
  ASSERT_EQ(d[0].observations.size(), 4u);
  EXPECT_EQ(d[0].observations[0].seq, 10u);
  EXPECT_EQ(d[0].observations[0].rows, 10);
  EXPECT_EQ(d[0].observations[0].query_text, "SELECT 10");
  EXPECT_EQ(d[0].observations[3].seq, 7u);
  ASSERT_EQ(d[0].aggregate.inputs.size(), 1u);
  EXPECT_EQ(d[0].aggregate.inputs[0], (TableVersion{"t", "v1", 1000}));
  EXPECT_EQ(store.show(sig_of(1).short_hex()).size(), 1u);  // a prefix is enough
  EXPECT_THROW(store.show("xyz"), StoreError);
}

TEST(SqliteStatsStoreTest, ListSortsAndSummaryCounts) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  store.record(attempt({stat(1, 10), stat(2, 5000), stat(3, 7, {"t"}, true)}, kT, 100));
  store.record(attempt({stat(1, 10)}, kT, 200));
  store.record(attempt({stat(4, 1, {"t"}, false, StatsSource::KeyKind::JoinSet)}, kT, 300));
  auto by_obs = store.list(ListOrder::Observations, 0);
  ASSERT_EQ(by_obs.size(), 4u);
  EXPECT_EQ(by_obs[0].signature, sig_of(1));
  EXPECT_EQ(store.list(ListOrder::Rows, 1).at(0).signature, sig_of(2));
  EXPECT_EQ(store.list(ListOrder::Recent, 1).at(0).signature, sig_of(4));
  auto s = store.summary();
  EXPECT_EQ(s.signatures, 4u);
  EXPECT_EQ(s.signatures_by_kind["exact"], 3u);
  EXPECT_EQ(s.signatures_by_kind["join_set"], 1u);
  EXPECT_EQ(s.signatures_by_kind["template"], 0u);
  EXPECT_EQ(s.lower_bound_only, 1u);
  EXPECT_EQ(s.oldest_ms, 100);
  EXPECT_EQ(s.newest_ms, 300);
  EXPECT_EQ(s.schema_version, SqliteStatsStore::kSchemaVersion);
  EXPECT_GT(s.file_bytes, 0u);
}

TEST(SqliteStatsStoreTest, ListQueriesOldestFirstWithSince) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  store.record(attempt({stat(1, 10)}, kT, 300, "SELECT c"));
  store.record(attempt({stat(1, 10)}, kT, 100, "SELECT a"));
  store.record(attempt({stat(2, 10)}, kT, 200, "SELECT b"));
  store.record(attempt({stat(2, 10)}, kT, 500, "SELECT a"));  // again: first seen 100, last seen 500
  auto all = store.list_queries();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].text, "SELECT a");
  EXPECT_EQ(all[0].first_seen_ms, 100);
  EXPECT_EQ(all[0].last_seen_ms, 500);
  EXPECT_EQ(all[1].text, "SELECT b");
  EXPECT_EQ(all[2].text, "SELECT c");
  // since: by last seen, still ordered by first seen.
  auto recent = store.list_queries(300);
  ASSERT_EQ(recent.size(), 2u);
  EXPECT_EQ(recent[0].text, "SELECT a");
  EXPECT_EQ(recent[1].text, "SELECT c");
  EXPECT_TRUE(store.list_queries(501).empty());
  // A read-only store reads them too.
  SqliteStatsStore::Options ro;
  ro.read_only = true;
  SqliteStatsStore reader(dir.file("stats.db"), ro);
  EXPECT_EQ(reader.list_queries().size(), 3u);
}

TEST(SqliteStatsStoreTest, GcRemovesWhatWasNotSeenRecentlyAndClearEmpties) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  const int64_t now = unix_now_ms();
  store.record(attempt({stat(1, 10), stat(2, 20)}, kT, now - 40LL * 86400000, "old"));
  store.record(attempt({stat(2, 25), stat(3, 30)}, kT, now, "new"));
  EXPECT_EQ(store.gc(30LL * 86400000), 1u);
  auto src = store.snapshot(kT, 0.1);
  EXPECT_FALSE(src->find(StatsSource::KeyKind::Exact, sig_of(1)));
  EXPECT_TRUE(src->find(StatsSource::KeyKind::Exact, sig_of(2)));
  EXPECT_TRUE(src->find(StatsSource::KeyKind::Exact, sig_of(3)));
  store.clear();
  EXPECT_EQ(store.summary().signatures, 0u);
  EXPECT_EQ(store.summary().queries, 0u);
  EXPECT_FALSE(store.snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(2)));
}

TEST(SqliteStatsStoreTest, ExportThenImportIntoAnEmptyStoreGivesIdenticalLookups) {
  TempDir dir;
  std::vector<uint64_t> keys;
  {
    SqliteStatsStore a(dir.file("a.db"));
    for (int round = 0; round < 5; ++round) {
      std::vector<RuntimeStats> st;
      for (uint64_t i = 0; i < 20; ++i)
        st.push_back(stat(i, double(i * 10 + round), {"t", "u"}, (i + round) % 3 == 0,
                          static_cast<StatsSource::KeyKind>(i % 3)));
      a.record(attempt(st, {{"t", "v" + std::to_string(round), 1000}, {"u", "v1", 10}}, 1000 + round));
    }
    a.export_to(dir.file("out.hsstats"));
  }
  SqliteStatsStore a(dir.file("a.db"));
  SqliteStatsStore b(dir.file("b.db"));
  auto r = b.import_from(dir.file("out.hsstats"));
  EXPECT_EQ(r.signatures_added, 20u);
  for (const auto& now : std::vector<std::vector<TableVersion>>{{{"t", "v4", 1000}, {"u", "v1", 10}},
                                                                {{"t", "v9", 1050}, {"u", "v1", 10}},
                                                                {{"t", "v9", 5000}, {"u", "v1", 10}}}) {
    auto sa = a.snapshot(now, 0.1), sb = b.snapshot(now, 0.1);
    for (uint64_t i = 0; i < 20; ++i)
      for (auto k : {StatsSource::KeyKind::Exact, StatsSource::KeyKind::JoinSet, StatsSource::KeyKind::Template})
        expect_same(sa->find(k, sig_of(i)), sb->find(k, sig_of(i)));
  }
  auto da = a.show(sig_of(5).hex()), db = b.show(sig_of(5).hex());
  ASSERT_EQ(da.size(), 1u);
  ASSERT_EQ(db.size(), 1u);
  EXPECT_EQ(da[0].observations.size(), db[0].observations.size());
  EXPECT_EQ(db[0].observations[0].query_text, "SELECT * FROM t");
  // Importing again merges: counts add up.
  b.import_from(dir.file("out.hsstats"));
  EXPECT_EQ(b.show(sig_of(5).hex())[0].aggregate.observations, 10u);
}

TEST(SqliteStatsStoreTest, BadImportFileIsAnErrorNamingTheFileAndChangesNothing) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  store.record(attempt({stat(1, 10)}));
  const auto before = store.summary();
  {
    std::ofstream(dir.file("garbage.bin"), std::ios::binary) << "\x08\x01\x12\x05 this is not a stats export at all";
  }
  for (const auto& f : {dir.file("garbage.bin"), dir.file("missing.bin")}) {
    try {
      store.import_from(f);
      ADD_FAILURE() << "import of " << f << " succeeded";
    } catch (const StoreError& e) {
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
    }
  }
  // A well-formed export with one inconsistent signature after valid ones: nothing of it is imported.
  {
    SqliteStatsStore other(dir.file("other.db"));
    other.record(attempt({stat(7, 70), stat(8, 80)}));
    other.export_to(dir.file("good.hsstats"));
  }
  std::string bytes;
  {
    std::ifstream in(dir.file("good.hsstats"), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(dir.file("truncated.hsstats"), std::ios::binary) << bytes.substr(0, bytes.size() - 9);
  EXPECT_THROW(store.import_from(dir.file("truncated.hsstats")), StoreError);
  const auto after = store.summary();
  EXPECT_EQ(after.signatures, before.signatures);
  EXPECT_EQ(after.attempts, before.attempts);
  EXPECT_EQ(after.queries, before.queries);
  EXPECT_FALSE(store.snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(7)));
}

// --- files the store cannot use: a warning, no answers, no writes, never a crash ---

TEST(SqliteStatsStoreRobustnessTest, TextFileIsAStoreError) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  std::ofstream(path) << "this is a text file, not a database\n" << std::string(5000, 'x');
  SqliteStatsStore store(path);
  EXPECT_FALSE(store.usable());
  EXPECT_TRUE(has_store_error(store.take_warnings()));
  EXPECT_TRUE(store.snapshot(kT, 0.1)->empty());
  store.record(attempt({stat(1, 10)}));
  EXPECT_THROW(store.summary(), StoreError);
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "this is a text file, not a database");  // untouched
}

TEST(SqliteStatsStoreRobustnessTest, ForeignDatabaseIsAStoreErrorAndLeftUntouched) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db, "CREATE TABLE customers(id INTEGER, name TEXT); INSERT INTO customers VALUES (1, 'a');", nullptr,
               nullptr, nullptr);
  sqlite3_close(db);
  SqliteStatsStore store(path);
  EXPECT_FALSE(store.usable());
  auto w = store.take_warnings();
  ASSERT_TRUE(has_store_error(w));
  EXPECT_NE(w[0].find("not a Hindsight stats store"), std::string::npos) << w[0];
  EXPECT_TRUE(store.snapshot(kT, 0.1)->empty());
  store.record(attempt({stat(1, 10)}));
  EXPECT_EQ(sql_text(path, "SELECT count(*) FROM sqlite_master"), "1");
  EXPECT_EQ(sql_text(path, "PRAGMA journal_mode"), "delete");
}

TEST(SqliteStatsStoreRobustnessTest, TruncatedFileIsAStoreError) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  {
    SqliteStatsStore store(path);
    std::vector<RuntimeStats> many;
    for (uint64_t i = 0; i < 2000; ++i) many.push_back(stat(i, double(i)));
    store.record(attempt(many));
  }
  ASSERT_FALSE(fs::exists(path + "-wal") && fs::file_size(path + "-wal") > 0);  // checkpointed at close
  const auto size = fs::file_size(path);
  ASSERT_GT(size, 16384u);
  fs::resize_file(path, size / 2);
  SqliteStatsStore store(path);
  EXPECT_FALSE(store.usable());
  EXPECT_TRUE(has_store_error(store.take_warnings()));
  EXPECT_TRUE(store.snapshot(kT, 0.1)->empty());
  store.record(attempt({stat(1, 10)}));
}

TEST(SqliteStatsStoreRobustnessTest, CorruptPagesAreAStoreError) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  {
    SqliteStatsStore store(path);
    std::vector<RuntimeStats> many;
    for (uint64_t i = 0; i < 2000; ++i) many.push_back(stat(i, double(i)));
    store.record(attempt(many));
  }
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    for (std::streamoff off = 4096 + 100; off < static_cast<std::streamoff>(fs::file_size(path)); off += 4096 * 3) {
      f.seekp(off);
      f.write("\xde\xad\xbe\xef\xde\xad\xbe\xef", 8);
    }
  }
  SqliteStatsStore store(path);
  EXPECT_FALSE(store.usable());
  EXPECT_TRUE(has_store_error(store.take_warnings()));
  EXPECT_TRUE(store.snapshot(kT, 0.1)->empty());
  store.record(attempt({stat(1, 10)}));
}

TEST(SqliteStatsStoreRobustnessTest, ReadOnlyFileAnswersButDoesNotRecord) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes read-only files";
  TempDir dir;
  const auto path = dir.file("stats.db");
  {
    SqliteStatsStore store(path);
    store.record(attempt({stat(1, 10)}));
  }
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read);
  SqliteStatsStore store(path);
  EXPECT_TRUE(store.usable());
  EXPECT_FALSE(store.writable());
  auto src = store.snapshot(kT, 0.1);
  ASSERT_TRUE(src->find(StatsSource::KeyKind::Exact, sig_of(1)));
  store.take_warnings();
  store.record(attempt({stat(2, 10)}));
  EXPECT_TRUE(has_store_error(store.take_warnings()));
  EXPECT_FALSE(store.snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(2)));
  std::vector<std::string> w;
  auto repo = open_stats_store(path, w);  // still the store: it answers
  EXPECT_TRUE(repo->snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));
}

TEST(SqliteStatsStoreRobustnessTest, UnwritableFolderFallsBackToMemory) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes read-only folders";
  TempDir dir;
  fs::create_directories(dir.path / "ro");
  fs::permissions(dir.path / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  std::vector<std::string> w;
  auto repo = open_stats_store(dir.file("ro/.hindsight/stats.db"), w);
  EXPECT_TRUE(has_store_error(w));
  repo->record(attempt({stat(1, 10)}));
  EXPECT_TRUE(repo->snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));
  fs::permissions(dir.path / "ro", fs::perms::owner_all);
}

TEST(SqliteStatsStoreRobustnessTest, NewerSchemaOpensReadOnly) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  {
    SqliteStatsStore store(path);
    store.record(attempt({stat(1, 10)}));
  }
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  SqliteStatsStore store(path);
  EXPECT_FALSE(store.writable());
  auto w = store.take_warnings();
  ASSERT_TRUE(has_store_error(w));
  EXPECT_NE(w[0].find("newer"), std::string::npos) << w[0];
  EXPECT_TRUE(store.snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));
  store.record(attempt({stat(2, 10)}));
  EXPECT_EQ(sql_text(path, "SELECT count(*) FROM signatures"), "1");
}

}  // namespace
}  // namespace hindsight::stats

namespace hindsight::stats {
namespace {

// The same contracts where file permissions cannot deny anything (root in a container): a store opened
// read-only, and a path whose folder cannot be created.
TEST(SqliteStatsStoreRobustnessTest, ReadOnlyStoreAnswersButDoesNotRecord) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  {
    SqliteStatsStore store(path);
    store.record(attempt({stat(1, 10)}));
  }
  SqliteStatsStore::Options o;
  o.read_only = true;
  SqliteStatsStore store(path, o);
  EXPECT_TRUE(store.usable());
  EXPECT_FALSE(store.writable());
  EXPECT_TRUE(store.snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));
  store.take_warnings();
  store.record(attempt({stat(2, 10)}));
  EXPECT_TRUE(has_store_error(store.take_warnings()));
  EXPECT_THROW(store.clear(), StoreError);
  EXPECT_EQ(sql_text(path, "SELECT count(*) FROM signatures"), "1");
}

TEST(SqliteStatsStoreRobustnessTest, UncreatableFolderFallsBackToMemory) {
  TempDir dir;
  std::ofstream(dir.file("plain-file")) << "x";
  std::vector<std::string> w;
  auto repo = open_stats_store(dir.file("plain-file/.hindsight/stats.db"), w);
  EXPECT_TRUE(has_store_error(w));
  EXPECT_EQ(dynamic_cast<SqliteStatsStore*>(repo.get()), nullptr);
  repo->record(attempt({stat(1, 10)}));
  EXPECT_TRUE(repo->snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));
}

}  // namespace
}  // namespace hindsight::stats

namespace hindsight::stats {
namespace {

// Past the size where open runs quick_check: the header's page count gives a truncation away.
TEST(SqliteStatsStoreRobustnessTest, TruncatedLargeFileIsAStoreError) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  {
    SqliteStatsStore store(path);
    for (uint64_t k = 0; k < 30000; k += 10000) {
      std::vector<RuntimeStats> many;
      for (uint64_t i = k; i < k + 10000; ++i) many.push_back(stat(i, double(i)));
      store.record(attempt(many));
    }
  }
  const auto size = fs::file_size(path);
  ASSERT_GT(size, 4u << 20);
  fs::resize_file(path, size - 8192);
  SqliteStatsStore store(path);
  EXPECT_FALSE(store.usable());
  auto w = store.take_warnings();
  ASSERT_TRUE(has_store_error(w));
  EXPECT_NE(w[0].find("truncated"), std::string::npos) << w[0];
  EXPECT_TRUE(store.snapshot(kT, 0.1)->empty());
}

TEST(SqliteStatsStoreTest, AnAttemptWithoutStatsWritesNothing) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  store.record(attempt({}));
  EXPECT_EQ(store.summary().attempts, 0u);
  EXPECT_EQ(store.summary().queries, 0u);
}

}  // namespace
}  // namespace hindsight::stats

namespace hindsight::stats {
namespace {

// The snapshot's SQL picks candidates by input table: it must agree with the in-memory rule, for
// computations over no table and for names that need escaping.
TEST(SqliteStatsStoreTest, SnapshotSelectsByInputTablesLikeTheMemoryScope) {
  TempDir dir;
  SqliteStatsStore store(dir.file("stats.db"));
  MemoryStatsRepository mem;
  const std::string odd = "we\"ird\\name\x01";
  const std::vector<TableVersion> tables = {{"t", "v1", 1000}, {"u", "v1", 10}, {odd, "v1", 5}};
  auto a = attempt({stat(1, 1, {}), stat(2, 2, {odd}), stat(3, 3, {"t", "u"}), stat(4, 4, {"t"})}, tables);
  store.record(a);
  mem.record(a);
  for (const auto& now : std::vector<std::vector<TableVersion>>{
           {{"t", "v1", 1000}, {odd, "v1", 5}}, {{"u", "v1", 10}, {"t", "v1", 1000}}, {}, tables}) {
    auto s = store.snapshot(now, 0.1), m = mem.snapshot(now, 0.1);
    for (uint64_t i = 1; i <= 4; ++i) {
      SCOPED_TRACE(i);
      expect_same(s->find(StatsSource::KeyKind::Exact, sig_of(i)), m->find(StatsSource::KeyKind::Exact, sig_of(i)));
    }
  }
  auto s = store.snapshot({{"t", "v1", 1000}, {odd, "v1", 5}}, 0.1);
  EXPECT_TRUE(s->find(StatsSource::KeyKind::Exact, sig_of(1)));   // no inputs: always usable
  EXPECT_TRUE(s->find(StatsSource::KeyKind::Exact, sig_of(2)));
  EXPECT_FALSE(s->find(StatsSource::KeyKind::Exact, sig_of(3)));  // u is not among the tables
  EXPECT_TRUE(s->find(StatsSource::KeyKind::Exact, sig_of(4)));
  EXPECT_TRUE(store.take_warnings().empty());
}

// snapshot() answers from an in-memory mirror of the store that this connection's writes keep current: every
// answer must equal a fresh connection's (which reads the file), after new signatures, repeated observations, a
// lower bound, another table version and another signature version, and another connection's commit must be seen.
TEST(SqliteStatsStoreTest, TheSnapshotMirrorAnswersAsTheFileDoes) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  SqliteStatsStore store(path);
  const std::vector<TableVersion> v1 = {{"t", "v1", 1000}, {"u", "v1", 10}};
  const std::vector<TableVersion> v2 = {{"t", "v2", 1050}, {"u", "v1", 10}};
  auto check = [&](const std::vector<TableVersion>& now, uint64_t upto) {
    SqliteStatsStore fresh(path);
    auto a = store.snapshot(now, 0.1), b = fresh.snapshot(now, 0.1);
    for (uint64_t i = 1; i <= upto; ++i)
      for (auto kind : {StatsSource::KeyKind::Exact, StatsSource::KeyKind::Template}) {
        SCOPED_TRACE(i);
        expect_same(a->find(kind, sig_of(i)), b->find(kind, sig_of(i)));
      }
  };
  store.snapshot(v1, 0.1);  // loads the (empty) mirror before the writes
  EXPECT_EQ(store.file_reads(), 1u);
  store.record(attempt({stat(1, 100, {"t"}), stat(2, 5, {"t", "u"}, true), stat(3, 7, {})}, v1));
  check(v1, 3);
  // Its own writes kept the mirror current: no second read of the file (a feedback run's planning was mostly
  // that read, once per query).
  EXPECT_EQ(store.file_reads(), 1u);
  store.record(attempt({stat(1, 120, {"t"}), stat(2, 9, {"t", "u"}), stat(4, 40, {"u"}, false, StatsSource::KeyKind::Template)},
                       v2));
  check(v1, 4);
  check(v2, 4);
  check({{"u", "v1", 10}}, 4);
  EXPECT_TRUE(store.snapshot(v2, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(2)));
  RuntimeStats other_version = stat(1, 500, {"t"});
  other_version.signature_version = sig::SIGNATURE_VERSION + 1;
  store.record(attempt({other_version}, v2));
  check(v2, 4);
  {
    SqliteStatsStore other(path);  // another connection writes: the mirror must read the file again
    other.record(attempt({stat(5, 55, {"t"}), stat(3, 8, {})}, v2));
  }
  EXPECT_EQ(store.file_reads(), 1u);
  auto s = store.snapshot(v2, 0.1);
  EXPECT_EQ(store.file_reads(), 2u);
  ASSERT_TRUE(s->find(StatsSource::KeyKind::Exact, sig_of(5)));
  EXPECT_EQ(s->find(StatsSource::KeyKind::Exact, sig_of(5))->rows, 55);
  EXPECT_EQ(s->find(StatsSource::KeyKind::Exact, sig_of(3))->observations, 2u);
  check(v2, 5);
  // The mirror holds the signatures over the tables asked for so far: a query over another table reads again.
  store.snapshot({{"w", "v1", 5}}, 0.1);
  EXPECT_EQ(store.file_reads(), 3u);
  check(v2, 5);
  EXPECT_EQ(store.file_reads(), 3u);
  store.clear();
  EXPECT_FALSE(store.snapshot(v2, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(5)));
}

}  // namespace
}  // namespace hindsight::stats
