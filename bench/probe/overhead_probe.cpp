// Deterministic cost of signing and mapping, for scripts/overhead-instructions.sh: plans the
// benchmark's 12-way join once, then (after warming the per-thread pools) signs it with a fresh
// signer (as compilation does, and with every template too) and maps it, ten times each, between
// fresh plannings that churn the caches. Run under
// callgrind with collection toggled on sign_plans / map_plans / plan_query, the instruction
// counts per call do not depend on the machine's load, unlike the timed benchmarks.
#include "bench/bench_data.hpp"
#include "bench/queries.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/sql/parser.hpp"

namespace hindsight {
namespace {

// Signs every node with a fresh signer: as compile_query does (exact and join-set signatures,
// templates on first use), or with all three signatures (what EXPLAIN or a stats look-up asks for).
template <bool kAllThree>
void sign_every_node(const CompiledQuery& cq) {
  PlanSigner signer(cq.ctx);
  auto sign = [&](const auto& op) {
    if constexpr (kAllThree) signer.sign(op);
    else signer.sign_exact(op);
  };
  for (size_t i = 0; i < cq.ctes.size(); ++i) signer.set_cte(static_cast<int>(i), *cq.ctes[i].logical);
  for (auto& c : cq.ctes) sign(*c.logical);
  sign(*cq.logical);
  for (auto& c : cq.ctes) sign(*c.physical);
  sign(*cq.physical);
}

[[gnu::noinline]] void sign_plans(const CompiledQuery& cq) { sign_every_node<false>(cq); }
[[gnu::noinline]] void sign_all_plans(const CompiledQuery& cq) { sign_every_node<true>(cq); }

[[gnu::noinline]] void map_plans(const CompiledQuery& cq, const Settings& settings) {
  auto m = map_query(cq, nullptr, settings, /*detailed_labels=*/false);
}

[[gnu::noinline]] void plan_query(Database& db, const sql::Query& q, const Settings& settings) {
  auto cq = compile_query(db, q, bench::kTwelveWayJoin, settings, false);
}

// Not toggled: fills the per-thread pools the measured calls reuse.
[[gnu::noinline]] void warm_up(const CompiledQuery& cq, const Settings& settings) {
  for (int i = 0; i < 3; ++i) {
    PlanSigner signer(cq.ctx);
    signer.sign(*cq.logical);
    signer.sign(*cq.physical);
    auto m = map_query(cq, nullptr, settings, false);
  }
}

}  // namespace
}  // namespace hindsight

int main() {
  using namespace hindsight;
  Database& db = bench::tpch_sf001();
  auto stmt = sql::parse_statement(bench::kTwelveWayJoin);
  const sql::Query& q = *stmt->as<sql::SelectStatement>().query;
  Settings settings;
  auto cq = compile_query(db, q, bench::kTwelveWayJoin, settings, true);
  warm_up(*cq, settings);
  for (int i = 0; i < 10; ++i) {
    plan_query(db, q, settings);
    sign_plans(*cq);
    sign_all_plans(*cq);
    map_plans(*cq, settings);
  }
  return 0;
}
