// Planning a 12-way join with and without signatures + plan mapper: what the equivalence
// machinery costs on the planning path (goal: under 5 % of planning time).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "bench/bench_data.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/sql/parser.hpp"
#include "planner/storage/tpch_generator.hpp"

namespace hindsight {
namespace {

Database& bench_db() { return bench::tpch_sf001(); }

// 12 relations: the TPC-H star around lineitem plus self-joins of nation and region.
const char* kTwelveWay =
    "SELECT count(*) FROM lineitem, orders, customer, part, partsupp, supplier, nation n1, nation n2, "
    "region r1, region r2, nation n3, region r3 "
    "WHERE l_orderkey = o_orderkey AND o_custkey = c_custkey AND l_partkey = p_partkey "
    "AND ps_partkey = l_partkey AND ps_suppkey = l_suppkey AND s_suppkey = l_suppkey "
    "AND c_nationkey = n1.n_nationkey AND s_nationkey = n2.n_nationkey AND n1.n_regionkey = r1.r_regionkey "
    "AND n2.n_regionkey = r2.r_regionkey AND n3.n_nationkey = n1.n_nationkey AND r3.r_regionkey = n3.n_regionkey "
    "AND r1.r_name = 'ASIA' AND p_size > 10";

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

// The two parts of the overhead alone, on one compiled plan: signing every logical and physical
// node with a fresh signer, and building the mapping (signatures already cached).
void BM_Sign12Way(benchmark::State& state) {
  Database& db = bench_db();
  auto stmt = sql::parse_statement(kTwelveWay);
  Settings settings;
  auto cq = compile_query(db, *stmt->as<sql::SelectStatement>().query, kTwelveWay, settings, false);
  for (auto _ : state) {
    PlanSigner signer(cq->ctx);
    for (size_t i = 0; i < cq->ctes.size(); ++i) signer.set_cte(static_cast<int>(i), *cq->ctes[i].logical);
    for (auto& c : cq->ctes) signer.sign(*c.logical);
    benchmark::DoNotOptimize(signer.sign(*cq->logical).exact);
    for (auto& c : cq->ctes) signer.sign(*c.physical);
    benchmark::DoNotOptimize(signer.sign(*cq->physical).exact);
  }
}
BENCHMARK(BM_Sign12Way)->Unit(benchmark::kMicrosecond);

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
