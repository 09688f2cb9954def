#pragma once
// Queries the planning benchmarks measure, shared with the tests that check those plans.

namespace hindsight::bench {

/// 12 relations: the TPC-H star around lineitem plus self-joins of nation and region.
inline constexpr const char* kTwelveWayJoin =
    "SELECT count(*) FROM lineitem, orders, customer, part, partsupp, supplier, nation n1, nation n2, "
    "region r1, region r2, nation n3, region r3 "
    "WHERE l_orderkey = o_orderkey AND o_custkey = c_custkey AND l_partkey = p_partkey "
    "AND ps_partkey = l_partkey AND ps_suppkey = l_suppkey AND s_suppkey = l_suppkey "
    "AND c_nationkey = n1.n_nationkey AND s_nationkey = n2.n_nationkey AND n1.n_regionkey = r1.r_regionkey "
    "AND n2.n_regionkey = r2.r_regionkey AND n3.n_nationkey = n1.n_nationkey AND r3.r_regionkey = n3.n_regionkey "
    "AND r1.r_name = 'ASIA' AND p_size > 10";

}  // namespace hindsight::bench
