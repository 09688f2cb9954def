#include "planner/optimizer/join_order/cardinality.hpp"

#include <gtest/gtest.h>

#include "planner/optimizer/join_order/cost_model.hpp"

namespace hindsight::joinorder {
namespace {

QueryGraph triangle() {
  QueryGraph graph;
  graph.add_relation(100);
  graph.add_relation(200);
  graph.add_relation(50);
  graph.add_edge(rel_bit(0), rel_bit(1), 0.01);
  graph.add_edge(rel_bit(1), rel_bit(2), 0.1);
  graph.add_edge(rel_bit(0) | rel_bit(1), rel_bit(2), 0.5);  // complex: needs all three
  return graph;
}

TEST(JoinOrderCardinalityTest, IndependenceProductOfEdgesInsideTheSet) {
  QueryGraph graph = triangle();
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, rel_bit(1)), 200);
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b011), 100 * 200 * 0.01);
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b101), 100 * 50);  // no edge inside: cross product
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b111), 100 * 200 * 50 * 0.01 * 0.1 * 0.5);
}

TEST(JoinOrderCardinalityTest, OverrideWinsAndIsMemoised) {
  QueryGraph graph = triangle();
  int calls = 0;
  CardinalityEstimator estimator(graph, [&](RelSet set) -> std::optional<double> {
    ++calls;
    if (set == 0b011) return 7.0;
    return std::nullopt;
  });
  EXPECT_DOUBLE_EQ(estimator.estimate(0b011), 7);
  EXPECT_DOUBLE_EQ(estimator(0b011), 7);
  EXPECT_EQ(estimator.source(0b011), CardinalitySource::kOverride);
  EXPECT_DOUBLE_EQ(estimator.estimate(0b110), 200 * 50 * 0.1);
  EXPECT_EQ(estimator.source(0b110), CardinalitySource::kModel);
  // A superset of the observed {0, 1} keeps the observed selectivity of its edge: the model's 100 * 200 * 0.01 =
  // 200 becomes 7 (the complex edge over all three has nothing observed to learn from: its model selectivity).
  EXPECT_DOUBLE_EQ(estimator.estimate(0b111), estimate_cardinality(graph, 0b111) * 7 / 200);
  // The override was asked once for each connected set of two or more (the complex edge connects 0 and 2 too).
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(estimator.memoised(), 3u);
  CardinalityFn fn = estimator.as_function();
  EXPECT_DOUBLE_EQ(fn(0b011), 7);
  EXPECT_EQ(calls, 4);
}

TEST(JoinOrderCardinalityTest, ALowerBoundOnlyRaises) {
  QueryGraph graph = triangle();
  // {0, 1}: at least 500 (the model: 200); {1, 2}: at least 3 (the model: 1000, which stays).
  CardinalityEstimator estimator(graph, [&](RelSet set) -> std::optional<ObservedCardinality> {
    if (set == 0b011) return ObservedCardinality(500, /*lower_bound=*/true);
    if (set == 0b110) return ObservedCardinality(3, /*lower_bound=*/true);
    return std::nullopt;
  });
  EXPECT_DOUBLE_EQ(estimator.estimate(0b011), 500);
  EXPECT_EQ(estimator.source(0b011), CardinalitySource::kOverride);
  EXPECT_DOUBLE_EQ(estimator.estimate(0b110), 200 * 50 * 0.1);
  EXPECT_EQ(estimator.source(0b110), CardinalitySource::kModel);
  // {0, 1} over its relations alone (known exactly) shows at least 500 / (100 * 200) for edge {0, 1}: the superset
  // takes that selectivity instead of the model's 0.01.
  EXPECT_DOUBLE_EQ(estimator.estimate(0b111), estimate_cardinality(graph, 0b111) * 500 / 200);
}

TEST(JoinOrderCardinalityTest, AnExactCountWinsOverALowerBound) {
  QueryGraph graph = triangle();
  // Edge {0, 1} is known exactly from {0, 1} (7 rows); the bound on {0, 1, 2} is below what that gives it.
  CardinalityEstimator estimator(graph, [&](RelSet set) -> std::optional<ObservedCardinality> {
    if (set == 0b011) return ObservedCardinality(7);
    if (set == 0b111) return ObservedCardinality(0.001, /*lower_bound=*/true);
    return std::nullopt;
  });
  EXPECT_DOUBLE_EQ(estimator.estimate(0b011), 7);
  EXPECT_DOUBLE_EQ(estimator.estimate(0b111), estimate_cardinality(graph, 0b111) * 7 / 200);
  EXPECT_EQ(estimator.source(0b111), CardinalitySource::kModel);
}

// top_customers_lines (bench/workloads/skewed.sql) at SF 0.1 under 8.9 MB: orders (0) semi joined with the 5
// customers with the most orders (2), joined to lineitem (1). The failed first attempt saw the semi join keep at
// least 35k of the 150k orders (the model: 81) and the join with lineitem reach at least 74k rows before it was
// cut short; both were only lower bounds, so the enumerator priced the set at the model's 321 rows.
TEST(JoinOrderCardinalityTest, LowerBoundsOfACutShortAttemptReachTheirSupersets) {
  QueryGraph graph;
  graph.add_relation(150000);
  graph.add_relation(598355);
  graph.add_edge(rel_bit(0), rel_bit(1), 1.0 / 150000);
  graph.add_semi_member(5, rel_bit(0), 80.58 / 150000, 0);
  const RelSet orders_semi = rel_bit(0) | rel_bit(2), all = 0b111;
  CardinalityEstimator estimator(graph, [&](RelSet set) -> std::optional<ObservedCardinality> {
    if (set == orders_semi) return ObservedCardinality(35008, true);
    if (set == all) return ObservedCardinality(74000, true);
    return std::nullopt;
  });
  EXPECT_NEAR(estimator.estimate(orders_semi), 35008, 1e-6);
  // The semi edge's bound over orders alone (exact) is a selectivity of at least 35008 / 150000: the set of all three
  // is 598355 x 35008 / 150000 = 139.7k rows, above its own bound.
  EXPECT_NEAR(estimator.estimate(all), 598355.0 * 35008 / 150000, 1e-3);
}

// popular_parts_semi (bench/workloads/skewed.sql) at SF 0.1 with feedback: lineitem (0) joins orders (1), and a semi
// member (2: the parts with more than 40 lines) keeps, by the model, 1420 / 19745 of the lines, while the store saw
// it keep 448k of 598k (a few popular parts carry most lines). Before, {lineitem, orders, semi} fell back to the
// model (26k rows) although both of its sub-joins were observed, and the join order put the semi join last.
TEST(JoinOrderCardinalityTest, ObservedSubJoinsCorrectTheirSupersets) {
  QueryGraph graph;
  graph.add_relation(598355);
  graph.add_relation(91285);
  graph.add_edge(rel_bit(0), rel_bit(1), 364484.0 / (598355.0 * 91285.0) / 2);  // the model: half the truth
  const int semi = graph.add_semi_member(1420, rel_bit(0), 1420.0 / 19745);
  const RelSet lineitem_semi = rel_bit(0) | rel_bit(semi);
  const RelSet all = 0b111;
  CardinalityEstimator estimator(graph, [&](RelSet set) -> std::optional<double> {
    if (set == lineitem_semi) return 447963.0;
    if (set == 0b011) return 364484.0;
    return std::nullopt;
  });
  // 364484 lines with their orders, of which the semi join keeps 447963 / 598355.
  EXPECT_NEAR(estimator.estimate(all), 364484.0 * 447963 / 598355, 1);
  EXPECT_EQ(estimator.source(all), CardinalitySource::kModel);

  // Without the observation of the semi join, only the inner join's correction applies.
  CardinalityEstimator inner_only(graph, [&](RelSet set) -> std::optional<double> {
    return set == 0b011 ? std::optional<double>(364484.0) : std::nullopt;
  });
  EXPECT_NEAR(inner_only.estimate(all), 364484.0 * 1420 / 19745, 1);
}

// top_customer_suppliers (bench/workloads/skewed.sql) at SF 1 with feedback: lineitem (0) ⋈ orders (1) ⋉ the two
// biggest customers (3) was observed, and partsupp (2) joined to it on two keys, but lineitem ⋈ partsupp never ran
// alone: the model's 120k for it (truth 3.0M) made the next plan join it first and do 1.23x the work of the model
// alone. Its edge's selectivity is learned from the two observed sets that differ by partsupp only.
TEST(JoinOrderCardinalityTest, AnEdgeObservedHighInAPlanInformsThePairItself) {
  QueryGraph graph;
  graph.add_relation(5998064);  // lineitem
  graph.add_relation(1500000);  // orders
  graph.add_relation(399577);   // partsupp, filtered
  graph.add_edge(rel_bit(0), rel_bit(1), 1.0 / 1500000);
  graph.add_edge(rel_bit(0), rel_bit(2), 5e-8);  // l_partkey = ps_partkey AND l_suppkey = ps_suppkey: the model
  graph.add_edge(rel_bit(0), rel_bit(2), 1.0);   // the second key of the same join
  const int customers = graph.add_semi_member(2, rel_bit(1), 2.0 / 99996);
  const RelSet lo_c = 0b0011 | rel_bit(customers);
  const RelSet all = lo_c | rel_bit(2);
  CardinalityEstimator estimator(graph, [&](RelSet set) -> std::optional<double> {
    if (set == (rel_bit(1) | rel_bit(customers))) return 185724.0;
    if (set == lo_c) return 743186.0;
    if (set == all) return 374461.0;
    return std::nullopt;
  });
  EXPECT_NEAR(estimator.estimate(0b0101), 5998064.0 * 374461 / 743186, 1);
  EXPECT_EQ(estimator.source(0b0101), CardinalitySource::kModel);
  EXPECT_DOUBLE_EQ(estimator.estimate(all), 374461);
  EXPECT_EQ(estimator.source(all), CardinalitySource::kOverride);
  // lineitem ⋈ orders was never observed without the semi join: its edge is learned from {orders ⋉ customers}
  // and {lineitem ⋈ orders ⋉ customers}, 743186 / (185724 x 5998064).
  EXPECT_NEAR(estimator.estimate(0b0011), 5998064.0 * 1500000 * 743186 / (185724.0 * 5998064), 1);
}

TEST(JoinOrderCardinalityTest, NoOverrideNoCorrection) {
  QueryGraph graph = triangle();
  CardinalityEstimator model(graph);
  EXPECT_DOUBLE_EQ(model.estimate(0b111), estimate_cardinality(graph, 0b111));
}

TEST(JoinOrderCostModelTest, HashJoinFormulaBuildsOnTheSmallerInput) {
  HashJoinCostModel model;
  EXPECT_DOUBLE_EQ(model.join_cost(1, 100, 2, 10, 50), 50 + 1.5 * 10 + 100);
  EXPECT_DOUBLE_EQ(model.join_cost(2, 10, 1, 100, 50), 50 + 1.5 * 10 + 100);
  OrientedJoin join = cheaper_orientation(model, 1, 10, 3, 2, 100, 4, 50);
  EXPECT_DOUBLE_EQ(join.cost, 3 + 4 + 50 + 15 + 100);
  EXPECT_TRUE(join.swapped);  // tie: the smaller input (10 rows) goes right
  EXPECT_FALSE(cheaper_orientation(model, 1, 100, 0, 2, 10, 0, 50).swapped);
}

}  // namespace
}  // namespace hindsight::joinorder
