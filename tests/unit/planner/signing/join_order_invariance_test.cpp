// Signatures of nodes above inner-join trees do not depend on the join order (written or planned), nor on which
// columns the pruner kept in their inputs; non-equivalent computations still differ (docs/signatures.md, "Inputs").
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "planner/signing/plan_signer.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::compile;

Settings cost_based() { return Settings{}; }

Settings foundation() {
  Settings s;
  s.optimizer = "foundation";
  return s;
}

struct Root {
  sig::Signature exact, templ;
};

Root root(const std::string& sql, const Settings& settings = {}) {
  auto cq = compile(sql, settings);
  const NodeSignatures& s = cq->signer->sign(*cq->logical);
  return Root{s.exact, s.templ};
}

std::vector<const LogicalOperator*> joins_of(const LogicalOperator& op) {
  std::vector<const LogicalOperator*> out;
  std::function<void(const LogicalOperator&)> walk = [&](const LogicalOperator& o) {
    if (o.kind == LogicalKind::Join) out.push_back(&o);
    for (auto& c : o.children) walk(*c);
  };
  walk(op);
  return out;
}

/// Every query of `variants`, planned cost-based and by the foundation optimizer (written order), has the root
/// signatures of the first one.
void expect_one_root(const std::vector<std::string>& variants) {
  const Root first = root(variants.at(0));
  for (const std::string& sql : variants) {
    for (const Settings& s : {cost_based(), foundation()}) {
      const Root r = root(sql, s);
      EXPECT_EQ(r.exact, first.exact) << s.optimizer << ": " << sql;
      EXPECT_EQ(r.templ, first.templ) << s.optimizer << ": " << sql;
    }
  }
}

TEST(JoinOrderInvarianceTest, TwoWayJoinWrittenEitherWay) {
  expect_one_root({
      "SELECT COUNT(*) FROM orders, customer WHERE o_custkey = c_custkey",
      "SELECT COUNT(*) FROM customer, orders WHERE c_custkey = o_custkey",
      "SELECT count(*) FROM customer x JOIN orders y ON y.o_custkey = x.c_custkey",
      "SELECT count(*) AS n FROM orders o INNER JOIN customer c ON c.c_custkey = o.o_custkey",
  });
}

TEST(JoinOrderInvarianceTest, TheJoinNodeItselfKeepsAnOrderSpecificExactSignature) {
  // Written order is kept by the foundation optimizer: the two joins differ, their join sets and the roots do not.
  auto a = compile("SELECT COUNT(*) FROM orders, customer WHERE o_custkey = c_custkey", foundation());
  auto b = compile("SELECT COUNT(*) FROM customer, orders WHERE c_custkey = o_custkey", foundation());
  auto ja = joins_of(*a->logical), jb = joins_of(*b->logical);
  ASSERT_EQ(ja.size(), 1u);
  ASSERT_EQ(jb.size(), 1u);
  EXPECT_NE(a->signer->sign(*ja[0]).exact, b->signer->sign(*jb[0]).exact);
  ASSERT_TRUE(a->signer->sign(*ja[0]).join_set && b->signer->sign(*jb[0]).join_set);
  EXPECT_EQ(*a->signer->sign(*ja[0]).join_set, *b->signer->sign(*jb[0]).join_set);
  EXPECT_EQ(a->signer->sign(*a->logical).exact, b->signer->sign(*b->logical).exact);
}

/// `select` over the relations of `rels` joined by the conjuncts of `where`, in `n` random written orders of
/// both (aliases renamed each time): one root signature, cost-based and in written order.
void expect_order_free(const std::string& select_list, std::vector<std::string> rels, std::vector<std::string> where,
                       const std::string& tail, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> variants;
  for (int i = 0; i < 6; ++i) {
    std::string from;
    for (size_t k = 0; k < rels.size(); ++k)
      from += (k ? ", " : "") + rels[k] + " t" + std::to_string(i) + "_" + std::to_string(k);
    std::string w;
    for (size_t k = 0; k < where.size(); ++k) w += (k ? " AND " : "") + where[k];
    variants.push_back("SELECT " + select_list + " FROM " + from + " WHERE " + w + tail);
    std::shuffle(rels.begin(), rels.end(), rng);
    std::shuffle(where.begin(), where.end(), rng);
  }
  expect_one_root(variants);
}

TEST(JoinOrderInvarianceTest, ThreeWayJoinInEveryWrittenOrder) {
  expect_order_free("count(*)", {"customer", "orders", "lineitem"},
                    {"c_custkey = o_custkey", "l_orderkey = o_orderkey", "l_quantity > 30"}, "", 3);
}

TEST(JoinOrderInvarianceTest, FourWayJoinWithGroupingSortAndLimitInEveryWrittenOrder) {
  expect_order_free("n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue",
                    {"customer", "orders", "lineitem", "nation"},
                    {"c_custkey = o_custkey", "l_orderkey = o_orderkey", "c_nationkey = n_nationkey", "n_regionkey = 2",
                     "o_orderdate < date '1995-01-01'"},
                    " GROUP BY n_name ORDER BY revenue DESC LIMIT 3", 11);
}

TEST(JoinOrderInvarianceTest, TemplatesAreOrderFreeTooAndConstantsStillCount) {
  const Root a =
      root("SELECT count(*) FROM nation, region WHERE n_regionkey = r_regionkey AND r_name = 'ASIA'", foundation());
  const Root b =
      root("SELECT count(*) FROM region, nation WHERE r_name = 'EUROPE' AND r_regionkey = n_regionkey", foundation());
  const Root c =
      root("SELECT count(*) FROM region, nation WHERE r_name = 'ASIA' AND r_regionkey = n_regionkey", foundation());
  EXPECT_NE(a.exact, b.exact);  // another constant
  EXPECT_EQ(a.templ, b.templ);  // the same template, whatever the order
  EXPECT_EQ(a.exact, c.exact);
  EXPECT_EQ(a.templ, c.templ);
  EXPECT_NE(a.exact, a.templ);
  // A constant inside a join condition of the tree: the template join set still ignores the order.
  const Root d = root("SELECT count(*) FROM nation a, nation b WHERE a.n_nationkey = b.n_nationkey + 1", foundation());
  const Root e = root("SELECT count(*) FROM nation b, nation a WHERE b.n_nationkey + 2 = a.n_nationkey", foundation());
  EXPECT_NE(d.exact, e.exact);
  EXPECT_EQ(d.templ, e.templ);
}

TEST(JoinOrderInvarianceTest, NonEquivalentComputationsStillDiffer) {
  const std::vector<std::string> distinct = {
      "SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey",
      // another predicate, an extra predicate
      "SELECT count(*) FROM orders, customer WHERE o_custkey = c_nationkey",
      "SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey AND o_totalprice > c_acctbal",
      "SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey AND o_totalprice < c_acctbal",
      // other tables
      "SELECT count(*) FROM orders, supplier WHERE o_custkey = s_suppkey",
      "SELECT count(*) FROM orders",
      // other join types, and the sides of an outer join
      "SELECT count(*) FROM orders LEFT JOIN customer ON o_custkey = c_custkey",
      "SELECT count(*) FROM customer LEFT JOIN orders ON o_custkey = c_custkey",
      "SELECT count(*) FROM customer WHERE c_custkey IN (SELECT o_custkey FROM orders)",
      // another aggregate, group keys
      "SELECT sum(o_totalprice) FROM orders, customer WHERE o_custkey = c_custkey",
      "SELECT sum(c_acctbal) FROM orders, customer WHERE o_custkey = c_custkey",
      "SELECT c_nationkey, count(*) FROM orders, customer WHERE o_custkey = c_custkey GROUP BY c_nationkey",
      "SELECT c_mktsegment, count(*) FROM orders, customer WHERE o_custkey = c_custkey GROUP BY c_mktsegment",
      // a self-join is not its input
      "SELECT count(*) FROM nation a, nation b WHERE a.n_nationkey = b.n_nationkey",
      "SELECT count(*) FROM nation",
      // a filter above the join
      "SELECT count(*) FROM (SELECT o_totalprice + c_acctbal AS x FROM orders, customer WHERE o_custkey = c_custkey) t "
      "WHERE x > 100",
      "SELECT count(*) FROM (SELECT o_totalprice - c_acctbal AS x FROM orders, customer WHERE o_custkey = c_custkey) t "
      "WHERE x > 100",
      // a limit
      "SELECT count(*) FROM (SELECT o_orderkey FROM orders, customer WHERE o_custkey = c_custkey LIMIT 10) t",
  };
  for (const Settings& s : {cost_based(), foundation()}) {
    std::vector<sig::Signature> exact, templ;
    for (const std::string& sql : distinct) {
      const Root r = root(sql, s);
      exact.push_back(r.exact);
      templ.push_back(r.templ);
    }
    for (size_t i = 0; i < distinct.size(); ++i)
      for (size_t j = i + 1; j < distinct.size(); ++j) {
        EXPECT_NE(exact[i], exact[j]) << s.optimizer << ":\n" << distinct[i] << "\n" << distinct[j];
        EXPECT_NE(templ[i], templ[j]) << s.optimizer << ":\n" << distinct[i] << "\n" << distinct[j];
      }
  }
}

TEST(ColumnPruningInvarianceTest, CountingDoesNotDependOnTheColumnsPassedThrough) {
  expect_one_root({
      "SELECT count(*) FROM orders",
      "SELECT count(*) FROM (SELECT o_orderkey, o_custkey FROM orders) x",
      "SELECT count(*) FROM (SELECT o_custkey, o_totalprice + 1 AS p FROM orders) x",
  });
  // Over a join: the projection the pruner leaves keeps the first of the listed columns.
  expect_one_root({
      "SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey",
      "SELECT count(*) FROM (SELECT o_orderkey, c_name FROM orders, customer WHERE o_custkey = c_custkey) t",
      "SELECT count(*) FROM (SELECT c_name, o_orderkey FROM customer, orders WHERE c_custkey = o_custkey) t",
  });
  // A filter or group key over a projected-through column reads as the column itself.
  expect_one_root({
      "SELECT n_regionkey, count(*) FROM nation WHERE n_nationkey > 3 GROUP BY n_regionkey",
      "SELECT n_regionkey, count(*) FROM (SELECT n_name, n_nationkey, n_regionkey FROM nation) t "
      "WHERE n_nationkey > 3 GROUP BY n_regionkey",
  });
}

TEST(ColumnPruningInvarianceTest, ProjectionsStillDifferAndUnionsArePositional) {
  // The projection itself is its list of outputs.
  EXPECT_NE(root("SELECT o_orderkey FROM orders").exact, root("SELECT o_custkey FROM orders").exact);
  // What is computed above a projection reads the projected expressions through their lineage.
  EXPECT_NE(root("SELECT count(*) FROM (SELECT n_nationkey + 1 AS x FROM nation) t WHERE x > 3").exact,
            root("SELECT count(*) FROM (SELECT n_nationkey * 2 AS x FROM nation) t WHERE x > 3").exact);
  // A union's outputs are its inputs' columns by position: its inputs' projections are part of it.
  EXPECT_NE(
      root("SELECT sum(x) FROM (SELECT n_nationkey AS x FROM nation UNION ALL SELECT r_regionkey FROM region) u").exact,
      root("SELECT sum(x) FROM (SELECT n_regionkey AS x FROM nation UNION ALL SELECT r_regionkey FROM region) u")
          .exact);
}

TEST(ColumnPruningInvarianceTest, CteReferencesDoNotDependOnTheColumnsTheyRead) {
  Settings always;
  always.cte_materialization = "always";
  const std::string cte = "WITH c AS (SELECT n_nationkey AS k, n_regionkey AS r, n_name AS m FROM nation) ";
  const Root a = root(cte + "SELECT count(*) FROM c WHERE k > 3", always);
  const Root b = root(cte + "SELECT count(*) FROM (SELECT r, k FROM c WHERE k > 3) z", always);
  const Root c = root(cte + "SELECT count(*) FROM (SELECT m, r, k FROM c WHERE k > 3) z", always);
  EXPECT_EQ(a.exact, b.exact);
  EXPECT_EQ(a.exact, c.exact);
  EXPECT_EQ(a.templ, c.templ);
  EXPECT_NE(a.exact, root(cte + "SELECT count(*) FROM c WHERE r > 3", always).exact);
}

}  // namespace
}  // namespace hindsight
