// Micro benchmarks of the signatures/ library. Goal: sign a 1,000-node plan tree bottom-up in under 1 ms.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "signatures/canonical_encoder.hpp"
#include "signatures/hash128.hpp"

namespace {

using hindsight::sig::CanonicalEncoder;
using hindsight::sig::Signature;

struct SyntheticNode {
  std::string kind;
  std::string table;
  int64_t limit = 0;
  double selectivity = 0;
  int64_t literal = 0;
  std::vector<int> children;  // indices of earlier nodes: the array is already in bottom-up order
};

// A deterministic random tree: node i takes 0–3 children among the not-yet-parented nodes before it.
std::vector<SyntheticNode> make_tree(int n) {
  static const char* kinds[] = {"scan", "filter", "project", "hash_join", "aggregate", "sort", "limit"};
  std::mt19937 rng(7);
  std::vector<SyntheticNode> nodes(n);
  std::vector<int> roots;
  for (int i = 0; i < n; ++i) {
    SyntheticNode& node = nodes[i];
    node.kind = kinds[rng() % 7];
    node.table = "table_" + std::to_string(rng() % 50);
    node.limit = rng() % 1000;
    node.selectivity = (rng() % 1000) / 1000.0;
    node.literal = rng();
    int k = i == n - 1 ? static_cast<int>(roots.size()) : std::min<int>(rng() % 4, roots.size());
    for (int c = 0; c < k; ++c) {
      node.children.push_back(roots.back());
      roots.pop_back();
    }
    roots.push_back(i);
  }
  return nodes;
}

void sign_tree(const std::vector<SyntheticNode>& nodes, CanonicalEncoder& enc, std::vector<Signature>& sigs,
               std::vector<Signature>& child_sigs) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const SyntheticNode& node = nodes[i];
    enc.clear();
    enc.begin(node.kind);
    enc.field("table").str(node.table);
    enc.field("limit").i64(node.limit);
    enc.field("selectivity").f64(node.selectivity);
    enc.field("predicate").begin_list().str("<").str("col").constant("int", node.literal).end_list();
    child_sigs.clear();
    for (int c : node.children) child_sigs.push_back(sigs[c]);
    sigs[i] = hindsight::sig::tree_signature(enc.bytes(), child_sigs);
  }
}

void BM_SignTree1000(benchmark::State& state) {
  const auto nodes = make_tree(static_cast<int>(state.range(0)));
  CanonicalEncoder enc;
  std::vector<Signature> sigs(nodes.size()), child_sigs;
  for (auto _ : state) {
    sign_tree(nodes, enc, sigs, child_sigs);
    benchmark::DoNotOptimize(sigs.back());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SignTree1000)->Arg(1000)->Unit(benchmark::kMicrosecond);

void BM_JoinSetSignature5(benchmark::State& state) {
  std::vector<Signature> inputs;
  for (uint64_t i = 0; i < 5; ++i) inputs.push_back(hindsight::sig::hash128(std::to_string(i)));
  std::vector<std::string> preds = {"a.x=b.x", "b.y=c.y", "c.z=d.z", "d.w=e.w"};
  for (auto _ : state) benchmark::DoNotOptimize(hindsight::sig::join_set_signature(inputs, preds));
}
BENCHMARK(BM_JoinSetSignature5);

void BM_Hash128(benchmark::State& state) {
  const std::string bytes(static_cast<size_t>(state.range(0)), 'x');
  for (auto _ : state) benchmark::DoNotOptimize(hindsight::sig::hash128(bytes));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Hash128)->Arg(64)->Arg(1024);

}  // namespace

// hindsight_bench is built from every bench/*.cpp: a weak main lets another file bring its own main without a
// duplicate-symbol error, while this file still links on its own.
__attribute__((weak)) int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
