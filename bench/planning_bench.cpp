// Planning a 12-way join with and without signatures + plan mapper: what the equivalence
// machinery costs on the planning path (goal: under 5 % of planning time).
#include <benchmark/benchmark.h>

#include <ctime>
#include <unistd.h>

#include <filesystem>

#include "bench/bench_data.hpp"
#include "bench/queries.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/sql/parser.hpp"
#include "planner/storage/tpch_generator.hpp"

namespace hindsight {
namespace {

Database& bench_db() { return bench::tpch_sf001(); }

const char* const kTwelveWay = bench::kTwelveWayJoin;

void BM_Plan12Way(benchmark::State& state) {
  const bool with_mapper = state.range(0) != 0;
  Database& db = bench_db();
  auto stmt = sql::parse_statement(kTwelveWay);
  const sql::Query& q = *stmt->as<sql::SelectStatement>().query;
  Settings settings;
  for (auto _ : state) {
    auto cq = compile_query(db, q, kTwelveWay, settings, with_mapper);
    if (with_mapper) {
      auto m = map_query(*cq, nullptr, settings, /*detailed_labels=*/false);
      benchmark::DoNotOptimize(m->mapper.size());
    }
    benchmark::DoNotOptimize(cq->physical.get());
  }
  state.SetLabel(with_mapper ? "signatures + mapper" : "plain planning");
}
BENCHMARK(BM_Plan12Way)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The same comparison, paired: every iteration plans once without and once with signatures and
// mapper, alternating which goes first, each timed in thread CPU time. Both halves see the same
// heap and cache state, which the two separate runs of BM_Plan12Way do not (their difference
// swings by +-10 % from run to run). Counters: the mean of each half and the overhead in %.
double thread_cpu_us() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

void BM_Plan12WayPaired(benchmark::State& state) {
  const bool map_too = state.range(0) != 0;  // 0: signatures only, 1: signatures + mapper
  Database& db = bench_db();
  auto stmt = sql::parse_statement(kTwelveWay);
  const sql::Query& q = *stmt->as<sql::SelectStatement>().query;
  Settings settings;
  double plain_us = 0, signed_us = 0;
  int64_t n = 0;
  auto plan = [&](bool with_mapper) {
    double t0 = thread_cpu_us();
    auto cq = compile_query(db, q, kTwelveWay, settings, with_mapper);
    if (with_mapper && map_too) {
      auto m = map_query(*cq, nullptr, settings, /*detailed_labels=*/false);
      benchmark::DoNotOptimize(m->mapper.size());
    }
    benchmark::DoNotOptimize(cq->physical.get());
    cq.reset();
    return thread_cpu_us() - t0;
  };
  for (auto _ : state) {
    bool signed_first = (n & 1) != 0;
    double a = plan(signed_first), b = plan(!signed_first);
    (signed_first ? signed_us : plain_us) += a;
    (signed_first ? plain_us : signed_us) += b;
    ++n;
  }
  state.counters["plain_us"] = plain_us / static_cast<double>(n);
  state.counters["signed_us"] = signed_us / static_cast<double>(n);
  state.counters["overhead_pct"] = 100.0 * (signed_us - plain_us) / plain_us;
  state.SetLabel(map_too ? "signatures + mapper" : "signatures only");
}
BENCHMARK(BM_Plan12WayPaired)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The two parts of the overhead alone, on one compiled plan: signing every logical and physical
// node with a fresh signer, and building the mapping (signatures already cached). Signing as
// compile_query does (/0: exact and join-set signatures, templates left to their first use) and
// with every template too (/1: what EXPLAIN or stats look-ups on every node cost).
void BM_Sign12Way(benchmark::State& state) {
  const bool templates = state.range(0) != 0;
  Database& db = bench_db();
  auto stmt = sql::parse_statement(kTwelveWay);
  Settings settings;
  auto cq = compile_query(db, *stmt->as<sql::SelectStatement>().query, kTwelveWay, settings, false);
  for (auto _ : state) {
    PlanSigner signer(cq->ctx);
    for (size_t i = 0; i < cq->ctes.size(); ++i) signer.set_cte(static_cast<int>(i), *cq->ctes[i].logical);
    auto sign = [&](const auto& op) { return templates ? signer.sign(op).exact : signer.sign_exact(op).exact; };
    for (auto& c : cq->ctes) sign(*c.logical);
    benchmark::DoNotOptimize(sign(*cq->logical));
    for (auto& c : cq->ctes) sign(*c.physical);
    benchmark::DoNotOptimize(sign(*cq->physical));
  }
  state.SetLabel(templates ? "all three signatures" : "exact and join-set (as compile_query)");
}
BENCHMARK(BM_Sign12Way)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_Map12Way(benchmark::State& state) {
  Database& db = bench_db();
  auto stmt = sql::parse_statement(kTwelveWay);
  Settings settings;
  auto cq = compile_query(db, *stmt->as<sql::SelectStatement>().query, kTwelveWay, settings, true);
  size_t entities = 0, links = 0, refused = 0;
  for (auto _ : state) {
    auto m = map_query(*cq, nullptr, settings, /*detailed_labels=*/false);
    entities = m->mapper.size();
    links = m->mapper.link_count();
    refused = m->mapper.refused_links().size();
    benchmark::DoNotOptimize(entities);
  }
  state.counters["refused"] = static_cast<double>(refused);
  state.counters["entities"] = static_cast<double>(entities);
  state.counters["links"] = static_cast<double>(links);
  state.counters["rewrite_links"] = static_cast<double>(cq->rewrite_links.size());
  state.counters["ast_links"] = static_cast<double>(cq->ast_links.size());
}
BENCHMARK(BM_Map12Way)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hindsight
