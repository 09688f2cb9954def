// The estimator asks a StatsSource by exact, then join-set, then template signature before it
// uses its model, and records where each estimate came from.
#include "stats_store/stats_source.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>

#include "planner/session/explain.hpp"
#include "planner/sql/parser.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using stats::EstimateSource;
using stats::ObservedRows;
using stats::StatsSource;

/// Observations held in a map: a source that knows exactly what the test put in.
class MapSource final : public StatsSource {
 public:
  void put(KeyKind k, const sig::Signature& s, double rows, bool lower_bound = false, uint64_t bytes = 0) {
    ObservedRows o;
    o.rows = rows;
    o.lower_bound = lower_bound;
    o.bytes = bytes;
    map_[{k, s}] = o;
  }
  std::optional<ObservedRows> find(KeyKind k, const sig::Signature& s) const override {
    ++lookups;
    auto it = map_.find({k, s});
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }
  mutable int lookups = 0;

 private:
  std::map<std::pair<KeyKind, sig::Signature>, ObservedRows> map_;
};

std::unique_ptr<CompiledQuery> compile_with(const std::string& sql, const StatsSource* source, Settings s = {}) {
  auto stmts = sql::parse_sql(sql);
  StatsProvider provider;
  if (source)  // not owned: the test keeps it alive
    provider = [source](const std::vector<stats::TableVersion>&) {
      return std::shared_ptr<const StatsSource>(std::shared_ptr<const StatsSource>{}, source);
    };
  return compile_query(testing::tpch_db(), *stmts.at(0)->as<sql::SelectStatement>().query, sql, s, true, provider);
}

const LogicalOperator* find_node(const LogicalOperator& op, const std::function<bool(const LogicalOperator&)>& pred) {
  if (pred(op)) return &op;
  for (auto& c : op.children)
    if (auto* f = find_node(*c, pred)) return f;
  return nullptr;
}

const LogicalOperator* scan_of(const CompiledQuery& cq, const std::string& table) {
  return find_node(*cq.logical, [&](const LogicalOperator& op) {
    return op.kind == LogicalKind::Get && op.as<LogicalGet>().table.name == table;
  });
}

const LogicalOperator* top_join(const CompiledQuery& cq) {
  return find_node(*cq.logical, [](const LogicalOperator& op) { return op.kind == LogicalKind::Join; });
}

void expect_all_model(const LogicalOperator& op) {
  EXPECT_EQ(op.estimate_source, EstimateSource::Model) << logical_kind_name(op.kind);
  for (auto& c : op.children) expect_all_model(*c);
}

const char* kFiltered = "SELECT o_orderpriority, count(*) FROM orders WHERE o_totalprice > 200000 GROUP BY o_orderpriority";

TEST(StatsSourceTest, EmptySourceLeavesEveryEstimateToTheModel) {
  stats::EmptyStatsSource empty;
  auto cq = compile_with(kFiltered, &empty);
  expect_all_model(*cq->logical);
  auto plain = compile_with(kFiltered, nullptr);
  EXPECT_EQ(scan_of(*cq, "orders")->estimated_rows, scan_of(*plain, "orders")->estimated_rows);
}

TEST(StatsSourceTest, ExactObservationReplacesTheModelAndFeedsTheParents) {
  auto first = compile_with(kFiltered, nullptr);
  const LogicalOperator* scan = scan_of(*first, "orders");
  ASSERT_NE(scan, nullptr);
  ASSERT_NE(scan->estimated_rows, 7.0);
  MapSource src;
  src.put(StatsSource::KeyKind::Exact, first->signer->sign(*scan).exact, 7);
  auto again = compile_with(kFiltered, &src);
  const LogicalOperator* s2 = scan_of(*again, "orders");
  EXPECT_EQ(s2->estimated_rows, 7);
  EXPECT_EQ(s2->estimate_source, EstimateSource::Runtime);
  // The aggregate above now builds on 7 input rows: at most 7 groups.
  EXPECT_LE(again->logical->estimated_rows, 7);
  EXPECT_EQ(again->logical->estimate_source, EstimateSource::Model);
  // EXPLAIN shows where the figure came from.
  EXPECT_NE(explain_text(*again, nullptr).find("from runtime"), std::string::npos) << explain_text(*again, nullptr);
  auto j = explain_json(*again, nullptr);
  EXPECT_EQ(j["physical"]["estimate_source"], "model");
  std::string dump = j.dump();
  EXPECT_NE(dump.find("\"estimate_source\":\"runtime\""), std::string::npos);
}

TEST(StatsSourceTest, OtherConstantsFindTheTemplate) {
  auto first = compile_with(kFiltered, nullptr);
  MapSource src;
  src.put(StatsSource::KeyKind::Template, first->signer->sign(*scan_of(*first, "orders")).templ, 1234);
  auto other = compile_with(
      "SELECT o_orderpriority, count(*) FROM orders WHERE o_totalprice > 100000 GROUP BY o_orderpriority", &src);
  const LogicalOperator* s = scan_of(*other, "orders");
  EXPECT_EQ(s->estimated_rows, 1234);
  EXPECT_EQ(s->estimate_source, EstimateSource::Template);
}

TEST(StatsSourceTest, AnotherJoinOrderFindsTheJoinSet) {
  const char* a = "SELECT count(*) FROM customer, orders, nation WHERE c_custkey = o_custkey AND c_nationkey = n_nationkey";
  const char* b = "SELECT count(*) FROM nation, orders, customer WHERE n_nationkey = c_nationkey AND o_custkey = c_custkey";
  Settings written;
  written.disabled_rules = {"cost_based_join_order", "reorder_inner_joins"};
  auto first = compile_with(a, nullptr, written);
  const LogicalOperator* j = top_join(*first);
  ASSERT_TRUE(first->signer->sign(*j).join_set.has_value());
  MapSource src;
  src.put(StatsSource::KeyKind::JoinSet, *first->signer->sign(*j).join_set, 4321);
  auto second = compile_with(b, &src);
  const LogicalOperator* j2 = top_join(*second);
  EXPECT_EQ(j2->estimated_rows, 4321);
  EXPECT_EQ(j2->estimate_source, EstimateSource::JoinSet);
}

TEST(StatsSourceTest, ExactWinsOverJoinSetAndTemplate) {
  auto first = compile_with(kFiltered, nullptr);
  const NodeSignatures& sigs = first->signer->sign(*scan_of(*first, "orders"));
  MapSource src;
  src.put(StatsSource::KeyKind::Template, sigs.templ, 10);
  src.put(StatsSource::KeyKind::Exact, sigs.exact, 20);
  auto again = compile_with(kFiltered, &src);
  EXPECT_EQ(scan_of(*again, "orders")->estimated_rows, 20);
  EXPECT_EQ(scan_of(*again, "orders")->estimate_source, EstimateSource::Runtime);
}

TEST(StatsSourceTest, LowerBoundOnlyRaisesTheEstimate) {
  auto first = compile_with(kFiltered, nullptr);
  const LogicalOperator* scan = scan_of(*first, "orders");
  const double model = scan->estimated_rows;
  ASSERT_GT(model, 10);
  {
    MapSource src;
    src.put(StatsSource::KeyKind::Exact, first->signer->sign(*scan).exact, 3, /*lower_bound=*/true);
    auto c = compile_with(kFiltered, &src);
    EXPECT_EQ(scan_of(*c, "orders")->estimated_rows, model);
    EXPECT_EQ(scan_of(*c, "orders")->estimate_source, EstimateSource::Model);
  }
  {
    MapSource src;
    src.put(StatsSource::KeyKind::Exact, first->signer->sign(*scan).exact, model * 4, /*lower_bound=*/true);
    auto c = compile_with(kFiltered, &src);
    EXPECT_EQ(scan_of(*c, "orders")->estimated_rows, model * 4);
    EXPECT_EQ(scan_of(*c, "orders")->estimate_source, EstimateSource::Runtime);
  }
}

/// The tables under the lowest inner join whose children are both scans.
std::set<std::string> bottom_pair(const LogicalOperator& op) {
  if (op.kind == LogicalKind::Join && op.children[0]->kind == LogicalKind::Get && op.children[1]->kind == LogicalKind::Get)
    return {op.children[0]->as<LogicalGet>().table.name, op.children[1]->as<LogicalGet>().table.name};
  for (auto& c : op.children) {
    auto s = bottom_pair(*c);
    if (!s.empty()) return s;
  }
  return {};
}

const LogicalOperator* bottom_join(const LogicalOperator& op) {
  for (auto& c : op.children)
    if (auto* j = bottom_join(*c)) return j;
  return op.kind == LogicalKind::Join ? &op : nullptr;
}

// A four-way join the model orders by its independence product, planned without a source: its plan, the pair it
// joins first and that pair's join-set signature (what the enumerator looks up when it prices the pair).
constexpr const char* kFourWay = "SELECT count(*) FROM lineitem, orders, customer, nation WHERE l_orderkey = o_orderkey "
                                 "AND o_custkey = c_custkey AND c_nationkey = n_nationkey AND n_name = 'FRANCE'";
struct FirstPair {
  std::unique_ptr<CompiledQuery> plan;
  std::set<std::string> pair;
  std::optional<sig::Signature> join_set;
};
FirstPair first_pair(const char* q) {
  FirstPair f{compile_with(q, nullptr), {}, {}};
  if (const LogicalOperator* j = bottom_join(*f.plan->logical)) {
    f.pair = bottom_pair(*f.plan->logical);
    f.join_set = f.plan->signer->sign(*j).join_set;
  }
  return f;
}

TEST(StatsSourceTest, ObservedSubJoinSteersTheJoinOrder) {
  // The enumerator looks up every set of relations it prices by join-set signature: told that
  // the pair it would join first actually explodes, it starts elsewhere, and the rebuilt plan
  // still returns the same rows.
  const char* q = kFourWay;
  const FirstPair first = first_pair(q);
  const std::set<std::string>& pair = first.pair;
  ASSERT_EQ(pair.size(), 2u);
  ASSERT_TRUE(first.join_set.has_value());
  MapSource src;
  src.put(StatsSource::KeyKind::JoinSet, *first.join_set, 1e9);
  auto again = compile_with(q, &src);
  EXPECT_NE(bottom_pair(*again->logical), pair);
  EXPECT_GT(src.lookups, 3);
  // Same rows either way.
  auto r1 = testing::run(q);
  ExecutedQuery run = execute_query(*again, Settings{});
  ASSERT_TRUE(r1.ok() && !run.error);
  EXPECT_EQ(run.batches.at(0).columns.at(0).ints.at(0), r1.executed.batches.at(0).columns.at(0).ints.at(0));
}

TEST(StatsSourceTest, ALowerBoundOfASubJoinSteersTheJoinOrderToo) {
  // What a failed attempt leaves: the pair it joined first was cut short after 1e9 rows (a lower bound). The
  // enumerator took only exact counts, so the re-plan joined that pair first again, as if it were as small as the
  // model thought (top_customers_lines at SF 0.1 under 8.9 MB: a 140k-row join taken for 323 rows, built again).
  const char* q = kFourWay;
  const FirstPair first = first_pair(q);
  const std::set<std::string>& pair = first.pair;
  ASSERT_EQ(pair.size(), 2u);
  ASSERT_TRUE(first.join_set.has_value());
  const sig::Signature set = *first.join_set;
  MapSource high;
  high.put(StatsSource::KeyKind::JoinSet, set, 1e9, /*lower_bound=*/true);
  auto again = compile_with(q, &high);
  EXPECT_NE(bottom_pair(*again->logical), pair);
  // A bound below the model's estimate says nothing new: the same order.
  MapSource low;
  low.put(StatsSource::KeyKind::JoinSet, set, 1, /*lower_bound=*/true);
  auto same = compile_with(q, &low);
  EXPECT_EQ(bottom_pair(*same->logical), pair);
}

TEST(StatsSourceTest, ObservedJoinSizeChangesTheJoinDistribution) {
  // customer ⋈ orders on custkey with orders hashed on o_orderkey: with the model's estimate
  // the small side is broadcast; told that the filtered customers are many, the optimizer stops
  // copying them to every worker.
  const char* q = "SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey AND c_acctbal > 9990";
  Settings s;
  s.workers = 4;
  auto first = compile_with(q, nullptr, s);
  std::string before = explain_text(*first, nullptr);
  ASSERT_NE(before.find("distribution: broadcast"), std::string::npos) << before;
  MapSource src;
  src.put(StatsSource::KeyKind::Exact, first->signer->sign(*scan_of(*first, "customer")).exact, 1e8);
  auto again = compile_with(q, &src, s);
  std::string after = explain_text(*again, nullptr);
  EXPECT_EQ(after.find("distribution: broadcast"), std::string::npos) << after;
}

TEST(StatsSourceTest, ObservedBytesPerRowSizeTheBuildSide) {
  // The same join, the same observed row count for the build side: only the bytes per row differ. Rows that
  // were seen to be wide (long strings) make the broadcast copies too big for the memory budget.
  const char* q = "SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey AND c_acctbal > 9990";
  Settings s;
  s.workers = 4;
  s.memory_limit = 64 << 20;
  auto first = compile_with(q, nullptr, s);
  const sig::Signature customer = first->signer->sign(*scan_of(*first, "customer")).exact;
  MapSource narrow, wide;
  narrow.put(StatsSource::KeyKind::Exact, customer, 100, false, 100 * 16);
  wide.put(StatsSource::KeyKind::Exact, customer, 100, false, 100ull * (1 << 20));  // 1 MB per row
  auto with_narrow = compile_with(q, &narrow, s);
  auto with_wide = compile_with(q, &wide, s);
  EXPECT_EQ(scan_of(*with_wide, "customer")->observed_row_bytes, double(1 << 20));
  std::string n = explain_text(*with_narrow, nullptr), w = explain_text(*with_wide, nullptr);
  EXPECT_NE(n.find("distribution: broadcast"), std::string::npos) << n;
  EXPECT_EQ(w.find("distribution: broadcast"), std::string::npos) << w;
}

TEST(StatsSourceTest, ALowerBoundDoesNotHideAnExactCountFurtherDown) {
  // The join set was seen only under a LIMIT (a bound); the template, with other constants, saw it whole.
  MapSource src;
  const sig::Signature exact{1, 1}, join_set{2, 2}, templ{3, 3};
  src.put(StatsSource::KeyKind::JoinSet, join_set, 3, /*lower_bound=*/true);
  src.put(StatsSource::KeyKind::Template, templ, 3000);
  auto e = src.lookup({exact, join_set, templ});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->source, EstimateSource::Template);
  EXPECT_EQ(e->observed.rows, 3000);
  EXPECT_FALSE(e->observed.lower_bound);
  // A bound above the exact count further down raises it.
  MapSource high;
  high.put(StatsSource::KeyKind::Exact, exact, 5000, true);
  high.put(StatsSource::KeyKind::Template, templ, 3000);
  EXPECT_EQ(high.lookup({exact, join_set, templ})->observed.rows, 5000);
  // Bounds only: the largest, still a bound.
  MapSource bounds;
  bounds.put(StatsSource::KeyKind::Exact, exact, 10, true);
  bounds.put(StatsSource::KeyKind::Template, templ, 40, true);
  auto b = bounds.lookup({exact, join_set, templ});
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->observed.lower_bound);
  EXPECT_EQ(b->observed.rows, 40);
}

}  // namespace
}  // namespace hindsight
