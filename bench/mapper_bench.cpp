// Plan mapper micro benchmarks: 10M mixed union-find operations (link / same-group find) over 1M entities.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>

#include "mapper/plan_mapper.hpp"
#include "mapper/union_find.hpp"

namespace {

using hindsight::mapper::EntityKind;
using hindsight::mapper::PlanMapper;
using hindsight::mapper::UnionFind;

constexpr uint32_t kEntities = 1'000'000;
constexpr uint64_t kOperations = 10'000'000;

// xorshift64*: cheap enough to generate operands inline instead of reading 80 MB of pregenerated pairs.
struct Rng {
  uint64_t state;
  uint32_t next(uint32_t bound) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return static_cast<uint32_t>(((state * 2685821657736338717ULL) >> 32) % bound);
  }
};

// The full mapper: every link names its stage (through stage_id, as a caller without the id at hand does), checks group
// schemas and records provenance.
// link_percent of the operations are links, the rest same_group() (two finds).
void BM_PlanMapperMixed(benchmark::State& state) {
  const auto link_percent = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    auto mapper = std::make_unique<PlanMapper>();
    for (uint32_t i = 0; i < kEntities; ++i) mapper->add(i % 3 ? EntityKind::Logical : EntityKind::Physical, "op");
    Rng rng{0x9E3779B97F4A7C15ULL};
    state.ResumeTiming();
    uint64_t together = 0;
    for (uint64_t op = 0; op < kOperations; ++op) {
      uint32_t a = rng.next(kEntities), b = rng.next(kEntities);
      if (rng.next(100) < link_percent) {
        mapper->link(a, b, mapper->stage_id("rewrite"));
      } else {
        together += mapper->same_group(a, b);
      }
    }
    benchmark::DoNotOptimize(together);
    state.PauseTiming();
    mapper.reset();  // freeing 1M entities is not part of the figure
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kOperations));
}
BENCHMARK(BM_PlanMapperMixed)->Arg(50)->Arg(10)->Unit(benchmark::kMillisecond)->Iterations(3);

// The Boost disjoint_sets core alone (rank + path compression over vectors), for comparison.
void BM_UnionFindMixed(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    UnionFind uf;
    uf.reserve(kEntities);
    for (uint32_t i = 0; i < kEntities; ++i) uf.add();
    Rng rng{0x9E3779B97F4A7C15ULL};
    state.ResumeTiming();
    uint64_t together = 0;
    for (uint64_t op = 0; op < kOperations; ++op) {
      uint32_t a = rng.next(kEntities), b = rng.next(kEntities);
      uint32_t ra = uf.find(a), rb = uf.find(b);
      if (rng.next(100) < 50) {
        if (ra != rb) uf.link_roots(ra, rb);
      } else {
        together += ra == rb;
      }
    }
    benchmark::DoNotOptimize(together);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kOperations));
}
BENCHMARK(BM_UnionFindMixed)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
