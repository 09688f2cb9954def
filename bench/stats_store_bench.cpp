// Micro benchmarks of the persistent stats store (stats_store/). Goals: >= 500 k cached look-ups/s on a
// snapshot, >= 100 k signatures/s recorded (record() of attempts with many signatures), exactly one store
// read per snapshot; the size on disk per 100 k signatures is reported as a counter.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "stats_store/memory_stats_source.hpp"
#include "stats_store/sqlite_store.hpp"

namespace {

using namespace hindsight::stats;
namespace fs = std::filesystem;

hindsight::sig::Signature bench_sig(uint64_t n) { return {0xB000000000000000ULL | n, n * 0x9E3779B97F4A7C15ULL}; }

const std::vector<TableVersion> kTables = {{"lineitem", "v1", 6001215}, {"orders", "v1", 1500000}};

AttemptStats bench_attempt(uint64_t first, uint64_t count, uint64_t round) {
  AttemptStats a;
  a.query_text = "SELECT ... FROM lineitem JOIN orders ON l_orderkey = o_orderkey";
  a.query_hash = std::string(32, 'a');
  a.plan_hash = std::to_string(round);
  a.tables = kTables;
  a.stats.reserve(count);
  for (uint64_t i = first; i < first + count; ++i) {
    RuntimeStats s;
    s.kind = static_cast<StatsSource::KeyKind>(i % 3);
    s.signature = bench_sig(i);
    s.operator_name = "Join";
    s.canonical_text = "join(lineitem, orders)";
    s.rows = static_cast<double>(i * 7 + round);
    s.bytes = i * 64;
    s.peak_memory = static_cast<int64_t>(i);
    s.input_tables = {"lineitem", "orders"};
    a.stats.push_back(std::move(s));
  }
  return a;
}

struct BenchDir {
  fs::path path = fs::temp_directory_path() / ("hindsight-store-bench-" + std::to_string(::getpid()));
  BenchDir() { fs::remove_all(path); }
  ~BenchDir() { fs::remove_all(path); }
  std::string db() const { return (path / "stats.db").string(); }
};

uint64_t store_bytes(const std::string& db) {
  uint64_t n = 0;
  std::error_code ec;
  for (const auto& p : {db, db + "-wal"}) {
    auto s = fs::file_size(p, ec);
    if (!ec) n += s;
  }
  return n;
}

// record() of attempts carrying 1,000 signatures each: new signatures first, then the same again (updates).
void BM_StoreRecordSignatures(benchmark::State& state) {
  BenchDir dir;
  SqliteStatsStore store(dir.db());
  const uint64_t per_attempt = static_cast<uint64_t>(state.range(0));
  uint64_t round = 0, signatures = 0;
  std::vector<AttemptStats> attempts;
  for (uint64_t k = 0; k < 10; ++k) attempts.push_back(bench_attempt(k * per_attempt, per_attempt, k));
  for (auto _ : state) {
    store.record(attempts[round % attempts.size()]);
    ++round;
    signatures += per_attempt;
  }
  state.counters["signatures/s"] = benchmark::Counter(static_cast<double>(signatures), benchmark::Counter::kIsRate);
  if (!store.take_warnings().empty()) state.SkipWithError("the store warned");
}
BENCHMARK(BM_StoreRecordSignatures)->Arg(1000)->Unit(benchmark::kMillisecond);

// find() on a snapshot of 100 k signatures: the planner's look-ups during one optimization.
void BM_SnapshotLookup(benchmark::State& state) {
  BenchDir dir;
  SqliteStatsStore store(dir.db());
  constexpr uint64_t kSignatures = 100000;
  for (uint64_t k = 0; k < kSignatures; k += 10000) store.record(bench_attempt(k, 10000, 0));
  const uint64_t bytes = store_bytes(dir.db());
  auto snap = store.snapshot(kTables, 0.1);
  const uint64_t reads = store.reads();
  uint64_t i = 0, hits = 0;
  for (auto _ : state) {
    const uint64_t n = (i++ * 7919) % (kSignatures * 2);  // half of them miss
    auto r = snap->find(static_cast<StatsSource::KeyKind>(n % 3), bench_sig(n));
    hits += r.has_value();
    benchmark::DoNotOptimize(r);
  }
  state.counters["lookups/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["hit_ratio"] = static_cast<double>(hits) / static_cast<double>(std::max<uint64_t>(1, i));
  state.counters["reads_per_snapshot"] = static_cast<double>(reads);
  state.counters["bytes_per_100k_signatures"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SnapshotLookup);

// snapshot() of a store of 100 k signatures: one read, then the in-memory answers are built.
void BM_Snapshot100k(benchmark::State& state) {
  BenchDir dir;
  SqliteStatsStore store(dir.db());
  for (uint64_t k = 0; k < 100000; k += 10000) store.record(bench_attempt(k, 10000, 0));
  const uint64_t before = store.reads();
  for (auto _ : state) benchmark::DoNotOptimize(store.snapshot(kTables, 0.1));
  state.counters["reads_per_snapshot"] =
      static_cast<double>(store.reads() - before) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Snapshot100k)->Unit(benchmark::kMillisecond);

// The same store, its signatures spread over 10 tables: a query over one of them reads a tenth.
void BM_Snapshot100kOneTableOfTen(benchmark::State& state) {
  BenchDir dir;
  SqliteStatsStore store(dir.db());
  std::vector<TableVersion> all;
  for (int t = 0; t < 10; ++t) all.push_back({"table_" + std::to_string(t), "v1", 1000});
  for (uint64_t k = 0; k < 100000; k += 10000) {
    auto a = bench_attempt(k, 10000, 0);
    a.tables = all;
    for (auto& s : a.stats) s.input_tables = {all[s.signature.lo % 10].name};
    store.record(a);
  }
  size_t answers = 0;
  for (auto _ : state) {
    auto snap = store.snapshot({all[3]}, 0.1);
    answers = static_cast<const MemoryStatsSource&>(*snap).size();
  }
  state.counters["signatures_answered"] = static_cast<double>(answers);
}
BENCHMARK(BM_Snapshot100kOneTableOfTen)->Unit(benchmark::kMillisecond);

}  // namespace
