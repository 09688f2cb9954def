// End-to-end optimizer time (bind, rewrite, estimate, join order, physical planning, costing) for
// chain, star and clique joins of 6/10/14/20 relations, without and with two semi joins. Goal: a 14-way
// join planned in < 100 ms. The relations are aliases of `supplier` (hash-distributed, statistics
// available), so the estimates, the join enumeration (DPccp up to 14, greedy beyond) and the
// distribution choices (4 workers: the property-aware enumeration) all do real work;
// BM_BestJoinOrder in join_order_bench.cpp times the enumeration alone.
#include <benchmark/benchmark.h>

#include <string>

#include "bench/bench_data.hpp"
#include "planner/session/query_pipeline.hpp"
#include "planner/sql/parser.hpp"

namespace hindsight {
namespace {

enum Shape { kChain = 0, kStar = 1, kClique = 2 };

/// `semi` IN subqueries over nation, each on the nation key of its own relation (the first and the middle one):
/// semi joins whose conditions read their left side, so the enumerator takes them as semi members of the region.
std::string join_query(int shape, int n, int semi) {
  std::string sql = "SELECT count(*) FROM ";
  for (int i = 0; i < n; ++i) sql += (i ? ", supplier s" : "supplier s") + std::to_string(i);
  std::string where;
  auto pred = [&](int a, int b) {
    where += (where.empty() ? " WHERE " : " AND ") + ("s" + std::to_string(a) + ".s_suppkey = s" + std::to_string(b) + ".s_suppkey");
  };
  for (int i = 1; i < n; ++i) {
    if (shape == kChain) pred(i - 1, i);
    else if (shape == kStar) pred(0, i);
    else
      for (int j = 0; j < i; ++j) pred(j, i);
  }
  for (int k = 0; k < semi; ++k) {
    const std::string rel = "s" + std::to_string(k * n / 2 % n);
    where += " AND " + rel + ".s_nationkey IN (SELECT n_nationkey FROM nation WHERE n_regionkey = " + std::to_string(k % 5) + ")";
  }
  // A selective filter on one relation gives the enumerator something to order by.
  return sql + where + " AND s" + std::to_string(n - 1) + ".s_acctbal > 9000";
}

void BM_OptimizeJoin(benchmark::State& state) {
  const int shape = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
  const int semi = static_cast<int>(state.range(2));
  Database& db = bench::tpch_sf001();
  const std::string sql = join_query(shape, n, semi);
  auto stmt = sql::parse_statement(sql);
  const sql::Query& q = *stmt->as<sql::SelectStatement>().query;
  Settings settings;
  settings.workers = 4;
  compile_query(db, q, sql, settings, false);  // loads the table and its statistics once
  for (auto _ : state) {
    auto cq = compile_query(db, q, sql, settings, /*sign_plans=*/false);
    benchmark::DoNotOptimize(cq->physical.get());
  }
  static const char* names[] = {"chain", "star", "clique"};
  state.SetLabel(std::string(names[shape]) + " " + std::to_string(n) + "-way" +
                 (semi ? " + " + std::to_string(semi) + " semi" : ""));
}
/// Args: shape, relations, semi joins.
BENCHMARK(BM_OptimizeJoin)
    ->ArgsProduct({{kChain, kStar, kClique}, {6, 10, 14, 20}, {0, 2}})
    ->ArgNames({"shape", "n", "semi"})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hindsight
