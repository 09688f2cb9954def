#pragma once
#include <algorithm>
#include <cmath>
#include <random>

#include "planner/optimizer/join_order/query_graph.hpp"

namespace hindsight::joinorder::testing {

enum class Shape { kChain, kStar, kCycle, kClique };

/// A graph of the given shape: relation 0 is the star's hub; every relation 1000 rows, every edge selectivity 0.01.
inline QueryGraph make_shape(Shape shape, int n) {
  QueryGraph graph;
  for (int i = 0; i < n; ++i) graph.add_relation(1000, i);
  auto edge = [&](int a, int b) { graph.add_edge(rel_bit(a), rel_bit(b), 0.01); };
  switch (shape) {
    case Shape::kChain:
      for (int i = 1; i < n; ++i) edge(i - 1, i);
      break;
    case Shape::kStar:
      for (int i = 1; i < n; ++i) edge(0, i);
      break;
    case Shape::kCycle:
      for (int i = 1; i < n; ++i) edge(i - 1, i);
      if (n > 2) edge(n - 1, 0);
      break;
    case Shape::kClique:
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) edge(i, j);
      break;
  }
  return graph;
}

/// A random connected graph: a random spanning tree plus each other pair with probability `extra`, log-uniform
/// cardinalities (10..10⁶) and selectivities (10⁻⁴..1); with probability `complex` one edge ({a, b}, {c}).
inline QueryGraph make_random_connected(std::mt19937& rng, int n, double extra = 0.3, double complex = 0.2) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  QueryGraph graph;
  for (int i = 0; i < n; ++i) graph.add_relation(std::pow(10.0, 1 + 5 * unit(rng)), i);
  auto selectivity = [&] { return std::pow(10.0, -4 * unit(rng)); };
  for (int i = 1; i < n; ++i) {
    const int j = std::uniform_int_distribution<int>(0, i - 1)(rng);
    graph.add_edge(rel_bit(j), rel_bit(i), selectivity());
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 2; j < n; ++j)
      if (unit(rng) < extra) graph.add_edge(rel_bit(i), rel_bit(j), selectivity());
  if (n >= 3 && unit(rng) < complex) {
    std::uniform_int_distribution<int> pick(0, n - 1);
    int a = pick(rng), b = pick(rng), c = pick(rng);
    while (b == a) b = pick(rng);
    while (c == a || c == b) c = pick(rng);
    graph.add_edge(rel_bit(a) | rel_bit(b), rel_bit(c), selectivity());
  }
  return graph;
}

/// make_random_connected() plus `semi` semi members, each requiring one to three random relations of the inner
/// graph (log-uniform rows 1..10⁵, kept share 10⁻³..1).
inline QueryGraph make_random_with_semi_members(std::mt19937& rng, int n, int semi, double extra = 0.3) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  QueryGraph graph = make_random_connected(rng, n, extra);
  std::uniform_int_distribution<int> pick(0, n - 1);
  for (int m = 0; m < semi; ++m) {
    RelSet required = rel_bit(pick(rng));
    const int more = std::uniform_int_distribution<int>(0, 2)(rng);
    for (int k = 0; k < more; ++k) required |= rel_bit(pick(rng));
    graph.add_semi_member(std::pow(10.0, 5 * unit(rng)), required, std::pow(10.0, -3 * unit(rng)), 100 + m);
  }
  return graph;
}

/// make_random_with_semi_members() plus `left` LEFT members, each requiring one or two random relations of the
/// inner graph (log-uniform rows 1..10⁵, fanout max(1, rows · 10⁻⁵..1): matches per left row).
inline QueryGraph make_random_with_left_members(std::mt19937& rng, int n, int semi, int left, double extra = 0.3) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  QueryGraph graph = make_random_with_semi_members(rng, n, semi, extra);
  std::uniform_int_distribution<int> pick(0, n - 1);
  for (int m = 0; m < left; ++m) {
    RelSet required = rel_bit(pick(rng));
    if (unit(rng) < 0.3) required |= rel_bit(pick(rng));
    const double rows = std::pow(10.0, 5 * unit(rng));
    graph.add_left_member(rows, required, std::max(1.0, rows * std::pow(10.0, -5 * unit(rng))), 200 + m);
  }
  return graph;
}

}  // namespace hindsight::joinorder::testing
