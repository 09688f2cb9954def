// Join enumeration time for chain, star and clique graphs (DPccp up to 14 relations, greedy at 20).
#include <benchmark/benchmark.h>

#include "planner/optimizer/join_order/best_join_order.hpp"
#include "planner/optimizer/join_order/dpccp.hpp"
#include "planner/optimizer/join_order/greedy.hpp"

namespace hindsight::joinorder {
namespace {

enum Shape : int64_t { kChain, kStar, kClique };

QueryGraph make_graph(int64_t shape, int n) {
  QueryGraph graph;
  for (int i = 0; i < n; ++i) graph.add_relation(1000.0 * (i % 7 + 1), i);
  auto edge = [&](int a, int b) { graph.add_edge(rel_bit(a), rel_bit(b), 0.001 * ((a + b) % 5 + 1)); };
  if (shape == kChain) {
    for (int i = 1; i < n; ++i) edge(i - 1, i);
  } else if (shape == kStar) {
    for (int i = 1; i < n; ++i) edge(0, i);
  } else {
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) edge(i, j);
  }
  return graph;
}

const char* shape_name(int64_t shape) { return shape == kChain ? "chain" : shape == kStar ? "star" : "clique"; }

/// Args: shape, relations. best_join_order with the default limit: DPccp up to 14, greedy beyond. The independence
/// estimator is built per iteration, so memoisation does not carry over between runs.
void BM_BestJoinOrder(benchmark::State& state) {
  const QueryGraph graph = make_graph(state.range(0), static_cast<int>(state.range(1)));
  HashJoinCostModel model;
  JoinOrderStats stats;
  for (auto _ : state) {
    CardinalityEstimator estimator(graph);
    JoinTree tree = best_join_order(graph, model, estimator.as_function());
    benchmark::DoNotOptimize(tree.root);
    stats = tree.stats;
  }
  state.SetLabel(std::string(shape_name(state.range(0))) +
                 (stats.algorithm == JoinOrderAlgorithm::kDpccp ? " dpccp" : " greedy"));
  state.counters["ccp_pairs"] = static_cast<double>(stats.ccp_pairs);
}
BENCHMARK(BM_BestJoinOrder)
    ->ArgsProduct({{kChain, kStar, kClique}, {6, 10, 14, 20}})
    ->Unit(benchmark::kMillisecond);

/// DPccp forced at 20 relations for chain and star (the clique, ~1.7·10⁹ pairs, is out of reach).
void BM_DpccpTwenty(benchmark::State& state) {
  const QueryGraph graph = make_graph(state.range(0), 20);
  HashJoinCostModel model;
  uint64_t pairs = 0;
  for (auto _ : state) {
    CardinalityEstimator estimator(graph);
    JoinTree tree = enumerate_dpccp(graph, model, estimator.as_function());
    benchmark::DoNotOptimize(tree.root);
    pairs = tree.stats.ccp_pairs;
  }
  state.SetLabel(shape_name(state.range(0)));
  state.counters["ccp_pairs"] = static_cast<double>(pairs);
}
BENCHMARK(BM_DpccpTwenty)->Arg(kChain)->Arg(kStar)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hindsight::joinorder
