#include "planner/signing/plan_signer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <set>

#include "bench/queries.hpp"
#include "mapper/mapper_export.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/signing/expr_normalizer.hpp"
#include "tests/unit/planner/sql/tpch_queries.hpp"
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

// The 12-way join of bench/planning_bench.cpp: every link is accepted (strict mode), and the cheap labels of the
// planning path group exactly like the detailed ones.
TEST(PlanSignerTest, TwelveWayJoinMapsCleanlyWhateverTheLabels) {
  const char* sql = bench::kTwelveWayJoin;
  auto cq = compile(sql);
  Settings strict;
  strict.mapper_strict = true;
  auto cheap = map_query(*cq, nullptr, strict, /*detailed_labels=*/false);
  auto detailed = map_query(*cq, nullptr, strict, /*detailed_labels=*/true);
  EXPECT_TRUE(cheap->mapper.refused_links().empty());
  ASSERT_EQ(cheap->mapper.size(), detailed->mapper.size());
  EXPECT_EQ(cheap->mapper.link_count(), detailed->mapper.link_count());
  EXPECT_EQ(cheap->mapper.group_count(), detailed->mapper.group_count());
  for (mapper::EntityId id = 0; id < cheap->mapper.size(); ++id) {
    EXPECT_EQ(cheap->mapper.group_of(id), detailed->mapper.group_of(id)) << id;
    EXPECT_EQ(cheap->mapper.schema(id), detailed->mapper.schema(id)) << id;
    EXPECT_EQ(cheap->mapper.kind(id), detailed->mapper.kind(id)) << id;
  }
  // Cheap labels are "<kind> #<id>", spelled on demand.
  mapper::EntityId root = cheap->logical.at(cq->logical->id);
  EXPECT_EQ(cheap->mapper.label(root), std::string(logical_kind_name(cq->logical->kind)) + " #" + std::to_string(cq->logical->id));
  EXPECT_EQ(cheap->mapper.entity(root).label, cheap->mapper.label(root));
  // Join-set signatures link every inner join of the tree.
  size_t joins = nodes_of(*cq->logical, LogicalKind::Join).size();
  size_t join_set_links = 0;
  for (const mapper::Link& l : cheap->mapper.links()) join_set_links += l.stage == "signature:join_set";
  EXPECT_EQ(join_set_links, joins);
  EXPECT_EQ(joins, 11u);
}

// Every operator entity's schema is its output column types as a sorted list: for TPC-H Q1-Q22
// and for a query with more than eight distinct types (counted column by column, not packed).
TEST(PlanSignerTest, OperatorSchemasAreTheirSortedOutputTypes) {
  std::vector<std::string> queries(sql::testing::tpch_queries().begin(), sql::testing::tpch_queries().end());
  const std::string many_types =
      "SELECT l_quantity, l_extendedprice * (1 - l_discount), l_quantity * l_extendedprice * l_tax, l_shipdate, "
      "l_comment, l_linenumber, l_orderkey, avg(l_quantity), count(*), l_quantity > 3, o_totalprice / 7 "
      "FROM lineitem, orders WHERE l_orderkey = o_orderkey GROUP BY l_quantity, l_extendedprice, l_discount, l_tax, "
      "l_shipdate, l_comment, l_linenumber, l_orderkey, o_totalprice";
  queries.push_back(many_types);
  size_t most_types = 0;
  for (const std::string& sql : queries) {
    auto cq = compile(sql);
    auto m = map_query(*cq, nullptr, Settings{}, /*detailed_labels=*/false);
    std::set<std::string> query_types;
    auto expected = [&](const std::vector<ColumnId>& outputs) {
      std::vector<std::string> types;
      for (ColumnId c : outputs) types.push_back(cq->ctx.column(c).type.to_string());
      std::sort(types.begin(), types.end());
      query_types.insert(types.begin(), types.end());
      return types;
    };
    std::function<void(const LogicalOperator&)> logical = [&](const LogicalOperator& op) {
      EXPECT_EQ(m->mapper.schema(m->logical.at(op.id)), expected(op.outputs)) << sql;
      for (auto& c : op.children) logical(*c);
    };
    std::function<void(const PhysicalOperator&)> physical = [&](const PhysicalOperator& op) {
      EXPECT_EQ(m->mapper.schema(m->physical.at(op.id)), expected(op.outputs)) << sql;
      for (auto& c : op.children) physical(*c);
    };
    logical(*cq->logical);
    physical(*cq->physical);
    most_types = std::max(most_types, query_types.size());
  }
  EXPECT_GT(most_types, 8u);
}

// Mappings reuse the memory of finished ones (and signers their tables): a mapping made after
// others, of larger and smaller plans, strict or not, with refused links or not, is the mapping a
// first one would be.
TEST(PlanSignerTest, ReusedMappingsAndSignersStartClean) {
  const char* small = "SELECT n_name FROM nation WHERE n_regionkey = 1";
  const char* conflict = "SELECT a.n_name, b.n_regionkey FROM nation a, nation b WHERE a.n_nationkey = b.n_nationkey";
  const char* large =
      "SELECT count(*) FROM lineitem, orders, customer, nation WHERE l_orderkey = o_orderkey AND o_custkey = c_custkey "
      "AND c_nationkey = n_nationkey AND n_name = 'FRANCE'";
  auto first = compile(small);
  const std::string reference = mapper::to_json(map_query(*first, nullptr, Settings{})->mapper).dump();
  const sig::Signature reference_root = first->signer->sign(*first->physical).exact;
  for (const char* other : {large, conflict, large}) {
    auto cq = compile(other);
    auto m = map_query(*cq, nullptr, Settings{});
    if (other == conflict) {
      EXPECT_FALSE(m->mapper.refused_links().empty());
    }
    m.reset();  // its memory goes to the next mapping
    auto again = compile(small);
    EXPECT_EQ(mapper::to_json(map_query(*again, nullptr, Settings{})->mapper).dump(), reference) << other;
    EXPECT_EQ(again->signer->sign(*again->physical).exact, reference_root) << other;
  }
  // A strict mapping leaves no strictness behind.
  Settings strict;
  strict.mapper_strict = true;
  auto cq = compile(conflict);
  testing::expect_error([&] { map_query(*cq, nullptr, strict); }, ErrorCode::INTERNAL);
  EXPECT_FALSE(map_query(*cq, nullptr, Settings{})->mapper.refused_links().empty());
}

// The signatures compile_query leaves in its signer are the ones a fresh signer computes for the
// final plans: nothing is stale after rewrites, join ordering or physical planning, and a signer
// built from pooled tables starts clean. All 22 TPC-H queries, with CTEs inlined and materialized.
TEST(PlanSignerTest, PipelineSignaturesEqualAFreshSigningOfTheFinalPlans) {
  for (const char* materialization : {"auto", "always"}) {
    Settings settings;
    settings.cte_materialization = materialization;
    int number = 0;
    for (const std::string& sql : sql::testing::tpch_queries()) {
      ++number;
      auto cq = compile(sql, settings);
      PlanSigner fresh(cq->ctx);
      for (size_t i = 0; i < cq->ctes.size(); ++i) fresh.set_cte(static_cast<int>(i), *cq->ctes[i].logical);
      size_t compared = 0;
      auto same = [&](const NodeSignatures& a, const NodeSignatures& b, NodeId id) {
        ++compared;
        EXPECT_EQ(a.exact, b.exact) << "Q" << number << " " << materialization << " node " << id;
        EXPECT_EQ(a.templ, b.templ) << "Q" << number << " " << materialization << " node " << id;
        EXPECT_EQ(a.join_set, b.join_set) << "Q" << number << " " << materialization << " node " << id;
      };
      std::function<void(const LogicalOperator&)> logical = [&](const LogicalOperator& op) {
        same(fresh.sign(op), cq->signer->sign(op), op.id);
        for (auto& c : op.children) logical(*c);
      };
      std::function<void(const PhysicalOperator&)> physical = [&](const PhysicalOperator& op) {
        same(fresh.sign(op), cq->signer->sign(op), op.id);
        for (auto& c : op.children) physical(*c);
      };
      // Logical plans first (physical-only columns sign by lineage the logical plans define).
      for (auto& c : cq->ctes) logical(*c.logical);
      logical(*cq->logical);
      for (auto& c : cq->ctes) physical(*c.physical);
      physical(*cq->physical);
      EXPECT_GT(compared, 4u) << "Q" << number;
    }
  }
}

TEST(PlanSignerTest, SignersAgreeAndForgetResigns) {
  auto cq = compile(
      "SELECT n_name, count(*) FROM nation, region WHERE n_regionkey = r_regionkey AND r_name <> 'ASIA' "
      "AND n_nationkey + 1 > 3 GROUP BY n_name ORDER BY n_name LIMIT 5");
  // Two signers used in turn on one thread (they share scratch buffers) sign like the query's own. (Logical plan
  // first, as compile_query does: physical-only columns take their lineage from the logical plan when it is known.)
  PlanSigner a(cq->ctx), b(cq->ctx);
  const NodeSignatures& al = a.sign(*cq->logical);
  const NodeSignatures& bl = b.sign(*cq->logical);
  const NodeSignatures& bp = b.sign(*cq->physical);
  const NodeSignatures& ap = a.sign(*cq->physical);
  const NodeSignatures& own = cq->signer->sign(*cq->logical);
  EXPECT_EQ(al.exact, own.exact);
  EXPECT_EQ(al.templ, own.templ);
  EXPECT_EQ(bl.exact, own.exact);
  EXPECT_EQ(bl.templ, own.templ);
  EXPECT_EQ(ap.exact, bp.exact);
  EXPECT_EQ(ap.templ, bp.templ);
  EXPECT_EQ(ap.exact, cq->signer->sign(*cq->physical).exact);
  EXPECT_NE(al.exact, al.templ);  // the query has constants
  // References stay valid while the signer signs other nodes.
  const sig::Signature before = al.exact;
  std::vector<const LogicalOperator*> all;
  std::function<void(const LogicalOperator&)> walk = [&](const LogicalOperator& o) {
    all.push_back(&o);
    for (auto& c : o.children) walk(*c);
  };
  walk(*cq->logical);
  std::vector<NodeSignatures> first;
  for (auto* op : all) first.push_back(a.sign(*op));
  EXPECT_EQ(al.exact, before);
  // A forgotten node is signed again, to the same values (the plan did not change).
  for (auto* op : all) a.forget(op->id);
  for (size_t i = 0; i < all.size(); ++i) {
    const NodeSignatures& again = a.sign(*all[i]);
    EXPECT_EQ(again.exact, first[i].exact) << logical_kind_name(all[i]->kind);
    EXPECT_EQ(again.templ, first[i].templ);
    EXPECT_EQ(again.join_set, first[i].join_set);
  }
}

// compile_query signs exact and join-set signatures only; a template that differs is computed when
// first asked for. Those late templates (over children's late templates, through the pending
// lineage of union and physical-only output columns, and one asked for by an expression while
// another node's form is being written: `x + 1` over the union) are the values of a signer that
// computes all three at once, and they ignore constants as templates must.
TEST(PlanSignerTest, TemplatesComputedOnFirstUseEqualTemplatesComputedAtOnce) {
  auto query = [](int k) {
    return "SELECT x + 1, count(*), sum(x) FROM (SELECT n_nationkey AS x FROM nation WHERE n_regionkey = " +
           std::to_string(k) + " UNION ALL SELECT r_regionkey FROM region WHERE r_name <> 'X') t WHERE x * 2 > " +
           std::to_string(k) + " GROUP BY x + 1";
  };
  std::vector<NodeSignatures> logical_roots, physical_roots;
  for (int k : {1, 2}) {
    auto cq = compile(query(k));
    PlanSigner late(cq->ctx), at_once(cq->ctx);
    late.sign_exact(*cq->logical);
    late.sign_exact(*cq->physical);
    size_t compared = 0, late_templates = 0;
    auto same = [&](const NodeSignatures& a, const NodeSignatures& b) {
      ++compared;
      EXPECT_EQ(a.exact, b.exact);
      EXPECT_EQ(a.templ, b.templ);
      EXPECT_EQ(a.join_set, b.join_set);
      late_templates += a.templ != a.exact;
    };
    // Parents first: each late template is computed over children whose templates are not known yet.
    std::function<void(const LogicalOperator&)> logical = [&](const LogicalOperator& op) {
      EXPECT_EQ(late.sign_exact(op).exact, at_once.sign(op).exact);
      same(late.sign(op), at_once.sign(op));
      for (auto& c : op.children) logical(*c);
    };
    std::function<void(const PhysicalOperator&)> physical = [&](const PhysicalOperator& op) {
      same(late.sign(op), at_once.sign(op));
      for (auto& c : op.children) physical(*c);
    };
    logical(*cq->logical);
    physical(*cq->physical);
    EXPECT_GT(compared, 10u);
    EXPECT_GT(late_templates, 5u);  // the query's constants reach the roots
    // The pipeline's own signer (exact-only so far) agrees too.
    EXPECT_EQ(cq->signer->sign(*cq->physical).templ, at_once.sign(*cq->physical).templ);
    logical_roots.push_back(at_once.sign(*cq->logical));
    physical_roots.push_back(at_once.sign(*cq->physical));
  }
  EXPECT_NE(logical_roots[0].exact, logical_roots[1].exact);
  EXPECT_EQ(logical_roots[0].templ, logical_roots[1].templ);
  EXPECT_NE(physical_roots[0].exact, physical_roots[1].exact);
  EXPECT_EQ(physical_roots[0].templ, physical_roots[1].templ);
}

TEST(PlanSignerTest, ConstantsInProjectionsAndJoinConditions) {
  auto proj = [](int k, bool templ) { return root_sig("SELECT n_nationkey + " + std::to_string(k) + " FROM nation", templ); };
  EXPECT_NE(proj(1, false), proj(2, false));
  EXPECT_EQ(proj(1, true), proj(2, true));
  auto join = [](int k, bool templ) {
    return root_sig("SELECT a.n_name FROM nation a JOIN nation b ON a.n_nationkey = b.n_nationkey + " + std::to_string(k),
                    templ);
  };
  EXPECT_NE(join(1, false), join(2, false));
  EXPECT_EQ(join(1, true), join(2, true));
  // A computed column keeps its lineage through a projection: a different expression is another computation.
  EXPECT_NE(root_sig("SELECT x FROM (SELECT n_nationkey + 1 AS x FROM nation) t"),
            root_sig("SELECT x FROM (SELECT n_nationkey * 1 AS x FROM nation) t"));
  EXPECT_EQ(root_sig("SELECT x FROM (SELECT n_nationkey + 1 AS x FROM nation) t"),
            root_sig("SELECT y FROM (SELECT 1 + n_nationkey AS y FROM nation) u"));
}

TEST(PlanSignerTest, JoinSetWithNonEquiPredicatesIgnoresJoinOrder) {
  EXPECT_EQ(top_join_set("SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey AND o_totalprice > c_acctbal"),
            top_join_set("SELECT count(*) FROM customer, orders WHERE c_acctbal < o_totalprice AND c_custkey = o_custkey"));
  EXPECT_NE(top_join_set("SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey AND o_totalprice > c_acctbal"),
            top_join_set("SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey AND o_totalprice < c_acctbal"));
  EXPECT_NE(top_join_set("SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey"),
            top_join_set("SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey AND o_totalprice > c_acctbal"));
}

TEST(ExprNormalizerTest, NormalFormDetectionAgreesWithTheNormalizer) {
  PlanContext ctx;
  for (int i = 0; i < 3; ++i) ctx.add_column({"c" + std::to_string(i), DataType::bigint(), "t", "c" + std::to_string(i)});
  PlanSigner signer(ctx);
  auto col = [](ColumnId id) { return Expr::column(id, DataType::bigint(), 0); };
  auto lit = [](int64_t v) { return Expr::constant(Value::bigint(v)); };
  auto call = [](ScalarOp op, ExprPtr a, ExprPtr b) {
    std::vector<ExprPtr> v;
    v.push_back(std::move(a));
    v.push_back(std::move(b));
    return Expr::call(op, is_comparison_op(op) ? DataType::boolean() : DataType::bigint(), std::move(v));
  };
  auto in_list = [&](std::vector<ExprPtr> v) { return Expr::make(ExprKind::InList, DataType::boolean(), std::move(v)); };
  std::vector<std::pair<ExprPtr, bool>> cases;
  cases.emplace_back(col(1), true);
  cases.emplace_back(lit(1), true);
  cases.emplace_back(call(ScalarOp::Eq, col(1), col(2)), true);
  cases.emplace_back(call(ScalarOp::Eq, col(1), lit(2)), true);
  cases.emplace_back(call(ScalarOp::Lt, col(1), lit(2)), true);
  // A constant on the left of < stays there; > and >= are turned around, by the signer as it writes.
  cases.emplace_back(call(ScalarOp::Lt, lit(2), col(1)), true);
  cases.emplace_back(call(ScalarOp::Gt, col(1), lit(2)), true);
  cases.emplace_back(call(ScalarOp::Ge, col(1), col(2)), true);
  cases.emplace_back(call(ScalarOp::Gt, lit(2), col(1)), true);
  cases.emplace_back(call(ScalarOp::Gt, col(1), call(ScalarOp::Add, lit(2), lit(3))), false);  // folds
  cases.emplace_back(call(ScalarOp::Add, lit(1), lit(2)), false);  // folds
  cases.emplace_back(call(ScalarOp::Add, col(1), call(ScalarOp::Mul, lit(2), lit(3))), false);
  cases.emplace_back(call(ScalarOp::Add, col(1), call(ScalarOp::Mul, col(2), lit(3))), true);
  {
    std::vector<ExprPtr> v;
    v.push_back(col(1));
    v.push_back(lit(2));
    cases.emplace_back(in_list(std::move(v)), false);  // one-element IN becomes =
  }
  {
    std::vector<ExprPtr> v;
    v.push_back(col(1));
    v.push_back(lit(2));
    v.push_back(lit(3));
    cases.emplace_back(in_list(std::move(v)), true);
  }
  {
    std::vector<ExprPtr> v;
    v.push_back(call(ScalarOp::Eq, col(1), lit(1)));
    v.push_back(call(ScalarOp::Eq, col(2), lit(2)));
    cases.emplace_back(Expr::make(ExprKind::And, DataType::boolean(), std::move(v)), false);  // AND/OR: never claimed
  }
  for (auto& [e, normal] : cases) {
    SCOPED_TRACE(e->to_string());
    EXPECT_EQ(is_normalized_for_signature(*e), normal);
    ExprPtr n = normalize_for_signature(*e);
    // Whenever it claims "normal", the normalizer gives the same expression back, but for a
    // turned-around > or >=.
    const bool turned = e->kind == ExprKind::Call && (e->op == ScalarOp::Gt || e->op == ScalarOp::Ge);
    if (is_normalized_for_signature(*e) && !turned) {
      EXPECT_TRUE(n->equals(*e));
    }
    if (turned) {
      EXPECT_EQ(n->op, mirror_comparison(e->op));
    }
    // Either way the signer digests it as the normalized expression (which, but for AND / OR, it reads as it is).
    if (n->kind != ExprKind::And && n->kind != ExprKind::Or) {
      EXPECT_TRUE(is_normalized_for_signature(*n));
    }
    EXPECT_EQ(signer.expr_signature(*e, false), signer.expr_signature(*n, false));
    EXPECT_EQ(signer.expr_signature(*e, true), signer.expr_signature(*n, true));
  }
  // A column reference is named by the column's lineage itself (SIGNATURE_VERSION 4).
  EXPECT_EQ(signer.expr_signature(*col(1), false), signer.lineage(1, false));
  EXPECT_NE(signer.lineage(1, false), signer.lineage(2, false));
  // And what the signer reads as it is still tells different comparisons apart.
  EXPECT_NE(signer.expr_signature(*call(ScalarOp::Gt, col(1), lit(2)), false),
            signer.expr_signature(*call(ScalarOp::Lt, col(1), lit(2)), false));
  EXPECT_EQ(signer.expr_signature(*call(ScalarOp::Gt, col(1), lit(2)), false),
            signer.expr_signature(*call(ScalarOp::Lt, lit(2), col(1)), false));
  EXPECT_NE(signer.expr_signature(*call(ScalarOp::Ge, col(1), col(2)), false),
            signer.expr_signature(*call(ScalarOp::Gt, col(1), col(2)), false));
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
