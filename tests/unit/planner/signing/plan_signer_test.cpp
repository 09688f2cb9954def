#include "planner/signing/plan_signer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "planner/session/plan_mapping.hpp"
#include "planner/signing/expr_normalizer.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::compile;

/// Exact signatures of the logical Get/Filter/Join nodes under the root, in plan order.
std::vector<const LogicalOperator*> nodes_of(const LogicalOperator& op, LogicalKind kind) {
  std::vector<const LogicalOperator*> out;
  std::function<void(const LogicalOperator&)> walk = [&](const LogicalOperator& o) {
    if (o.kind == kind) out.push_back(&o);
    for (auto& c : o.children) walk(*c);
  };
  walk(op);
  return out;
}

sig::Signature root_sig(const std::string& sql, bool templ = false) {
  auto cq = compile(sql);
  const auto& s = cq->signer->sign(*cq->logical);
  return templ ? s.templ : s.exact;
}

sig::Signature top_join_set(const std::string& sql) {
  auto cq = compile(sql);
  auto joins = nodes_of(*cq->logical, LogicalKind::Join);
  EXPECT_FALSE(joins.empty());
  return *cq->signer->sign(*joins.at(0)).join_set;
}

TEST(PlanSignerTest, SelfJoinScansShareASignatureAndAGroup) {
  auto cq = compile(
      "SELECT a.n_name, b.n_name FROM nation a JOIN nation b ON a.n_nationkey = b.n_nationkey "
      "WHERE a.n_regionkey <> 1 AND b.n_regionkey <> 1");
  auto gets = nodes_of(*cq->logical, LogicalKind::Get);
  ASSERT_EQ(gets.size(), 2u);
  EXPECT_EQ(cq->signer->sign(*gets[0]).exact, cq->signer->sign(*gets[1]).exact);
  auto m = map_query(*cq, nullptr, Settings{});
  EXPECT_EQ(m->group_of_logical(gets[0]->id), m->group_of_logical(gets[1]->id));
}

TEST(PlanSignerTest, AliasesAndWrittenOrderDoNotMatter) {
  EXPECT_EQ(root_sig("SELECT n_name FROM nation x WHERE x.n_regionkey = 1"),
            root_sig("SELECT y.n_name AS name FROM nation y WHERE 1 = y.n_regionkey"));
  EXPECT_EQ(root_sig("SELECT n_name FROM nation WHERE n_regionkey = 1 AND n_nationkey > 3"),
            root_sig("SELECT n_name FROM nation WHERE 3 < n_nationkey AND n_regionkey = 1 AND n_regionkey = 1"));
}

TEST(PlanSignerTest, NormalizationCases) {
  EXPECT_EQ(root_sig("SELECT n_name FROM nation WHERE n_regionkey IN (3, 1, 2, 1)"),
            root_sig("SELECT n_name FROM nation WHERE n_regionkey IN (1, 2, 3)"));
  EXPECT_EQ(root_sig("SELECT n_name FROM nation WHERE n_regionkey IN (2)"),
            root_sig("SELECT n_name FROM nation WHERE n_regionkey = 2"));
  EXPECT_EQ(root_sig("SELECT n_name FROM nation WHERE n_regionkey = 1 AND (n_regionkey = 2 OR n_regionkey = 1)"),
            root_sig("SELECT n_name FROM nation WHERE n_regionkey = 1"));
  EXPECT_EQ(root_sig("SELECT n_nationkey + n_regionkey FROM nation"), root_sig("SELECT n_regionkey + n_nationkey FROM nation"));
  EXPECT_NE(root_sig("SELECT n_nationkey - n_regionkey FROM nation"), root_sig("SELECT n_regionkey - n_nationkey FROM nation"));
}

TEST(PlanSignerTest, ConstantsChangeTheExactButNotTheTemplateSignature) {
  const char* a = "SELECT n_name FROM nation WHERE n_regionkey = 1";
  const char* b = "SELECT n_name FROM nation WHERE n_regionkey = 4";
  EXPECT_NE(root_sig(a), root_sig(b));
  EXPECT_EQ(root_sig(a, true), root_sig(b, true));
  EXPECT_NE(root_sig(a, true), root_sig("SELECT n_name FROM nation WHERE n_name = 'x'", true));
}

TEST(PlanSignerTest, SamePredicateOnAnotherTableIsAnotherComputation) {
  EXPECT_NE(root_sig("SELECT count(*) FROM orders WHERE o_orderkey < 100"),
            root_sig("SELECT count(*) FROM lineitem WHERE l_orderkey < 100"));
  auto cq = compile("SELECT n_nationkey FROM nation WHERE n_nationkey < 3 UNION ALL SELECT r_regionkey FROM region WHERE r_regionkey < 3");
  auto gets = nodes_of(*cq->logical, LogicalKind::Get);
  ASSERT_EQ(gets.size(), 2u);
  auto m = map_query(*cq, nullptr, Settings{});
  EXPECT_NE(m->group_of_logical(gets[0]->id), m->group_of_logical(gets[1]->id));
}

TEST(PlanSignerTest, JoinSetSignatureIgnoresJoinOrder) {
  EXPECT_EQ(top_join_set("SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey"),
            top_join_set("SELECT count(*) FROM customer, orders WHERE c_custkey = o_custkey"));
  // Five relations in 20 random written orders: one join-set signature.
  std::vector<std::string> rels{"customer", "orders", "lineitem", "supplier", "nation"};
  const std::string where =
      " WHERE c_custkey = o_custkey AND o_orderkey = l_orderkey AND l_suppkey = s_suppkey AND s_nationkey = n_nationkey";
  std::mt19937 rng(7);
  std::optional<sig::Signature> first;
  for (int i = 0; i < 20; ++i) {
    std::shuffle(rels.begin(), rels.end(), rng);
    std::string from;
    for (auto& r : rels) from += (from.empty() ? "" : ", ") + r;
    auto s = top_join_set("SELECT count(*) FROM " + from + where);
    if (!first) first = s;
    EXPECT_EQ(*first, s) << from;
  }
}

TEST(PlanSignerTest, MaterializedCtesWithIdenticalBodiesShareAGroup) {
  Settings s;
  s.cte_materialization = "always";
  s.mapper_strict = true;
  const char* sql =
      "SET mapper_strict = true; SET cte_materialization = always; "
      "WITH a AS (SELECT n_regionkey k FROM nation WHERE n_nationkey < 10), "
      "     b AS (SELECT n_regionkey k FROM nation WHERE n_nationkey < 10) "
      "SELECT count(*) FROM a, b WHERE a.k = b.k";
  auto r = testing::run(sql);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.compiled->ctes.size(), 2u);
  auto m = map_query(*r.compiled, &r.executed, s);
  EXPECT_TRUE(m->mapper.refused_links().empty());
  auto ga = m->group_of_logical(r.compiled->ctes[0].logical->id);
  auto gb = m->group_of_logical(r.compiled->ctes[1].logical->id);
  ASSERT_TRUE(ga && gb);
  EXPECT_EQ(*ga, *gb);
  auto stats = m->mapper.group_stats(*ga);
  ASSERT_TRUE(stats.has_value());
  EXPECT_TRUE(stats->complete);
  EXPECT_EQ(stats->rows, 10);
}

TEST(PlanSignerTest, SchemaConflictIsRecordedAndStrictModeMakesItAnError) {
  // Both scans of nation read the same rows (one signature) but project different columns.
  const char* sql = "SELECT a.n_name, b.n_regionkey FROM nation a, nation b WHERE a.n_nationkey = b.n_nationkey";
  auto r = testing::run(sql);
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(r.executed.row_count(), 25u);
  auto m = map_query(*r.compiled, &r.executed, Settings{});
  EXPECT_FALSE(m->mapper.refused_links().empty());
  Settings strict;
  strict.mapper_strict = true;
  testing::expect_error([&] { map_query(*r.compiled, &r.executed, strict); }, ErrorCode::INTERNAL);
}

TEST(ExprNormalizerTest, ComparisonsTurnToLessThanWithConstantsFolded) {
  ExprPtr e = Expr::call(ScalarOp::Gt, DataType::boolean(), [] {
    std::vector<ExprPtr> v;
    v.push_back(Expr::column(1, DataType::bigint(), 0));
    v.push_back(Expr::call(ScalarOp::Add, DataType::bigint(), [] {
      std::vector<ExprPtr> w;
      w.push_back(Expr::constant(Value::bigint(1)));
      w.push_back(Expr::constant(Value::bigint(2)));
      return w;
    }()));
    return v;
  }());
  ExprPtr n = normalize_for_signature(*e);
  ASSERT_EQ(n->kind, ExprKind::Call);
  EXPECT_EQ(n->op, ScalarOp::Lt);
  EXPECT_TRUE(n->children[0]->is_constant());
  EXPECT_EQ(n->children[0]->value.i, 3);
}

}  // namespace
}  // namespace hindsight
