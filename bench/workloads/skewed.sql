-- Skewed multi-join queries: joins of 3 to 6 tables whose filters the cardinality model gets wrong on
-- `hindsight gen tpch --skew 1` data (planner/storage/tpch_generator.hpp): there o_custkey, l_partkey and
-- ps_suppkey are Zipf-skewed, c_mktsegment follows the nation (customer's nation % 5 picks the segment for 90 %
-- of them), l_shipmode follows l_shipinstruct (80 %) and p_type follows p_brand (80 %: Brand#MN has type
-- syllables M and N). The model multiplies independent selectivities and spreads keys uniformly, so correlated
-- predicates, popular keys, LIKE on correlated text and semi joins on skewed keys are misestimated.
--
-- One statement per query, each after a `-- name: NAME` line (bench/reexec_bench.py, and the differential test
-- `differential_skewed_workload` that checks every query against SQLite on the skewed SF 0.01 data). Standard
-- SQL that SQLite runs as written (dates compared as 'YYYY-MM-DD' text); every ORDER BY under a LIMIT is total.

-- name: segment_follows_nation
-- Correlated: BUILDING is the segment of ARGENTINA's and FRANCE's customers (nations 1 and 6), so the pair keeps
-- ~90 % of those nations' customers where the model expects 1/5. Four tables.
SELECT n_name, count(*) AS lines, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM customer JOIN nation ON c_nationkey = n_nationkey
JOIN orders ON o_custkey = c_custkey
JOIN lineitem ON l_orderkey = o_orderkey
WHERE c_mktsegment = 'BUILDING' AND n_name IN ('ARGENTINA', 'FRANCE', 'IRAN') AND l_shipdate >= '1995-01-01'
GROUP BY n_name
ORDER BY n_name;

-- name: shipmode_follows_instruct
-- Correlated: COLLECT COD lines mostly ship by RAIL or SHIP (the model: 2/7 of a quarter). Four tables.
SELECT c_mktsegment, count(*) AS lines, sum(l_quantity) AS quantity
FROM lineitem JOIN orders ON l_orderkey = o_orderkey
JOIN customer ON o_custkey = c_custkey
JOIN nation ON c_nationkey = n_nationkey
WHERE l_shipinstruct = 'COLLECT COD' AND l_shipmode IN ('RAIL', 'SHIP') AND n_regionkey = 2
GROUP BY c_mktsegment
ORDER BY c_mktsegment;

-- name: brand_type_like
-- LIKE on correlated text: Brand#13 parts are mostly 'STANDARD ... BRASS' (the model: 1/25 of 1/6 of 1/5).
-- Five tables.
SELECT s_name, count(*) AS lines, sum(l_extendedprice) AS price
FROM part JOIN lineitem ON l_partkey = p_partkey
JOIN partsupp ON ps_partkey = l_partkey AND ps_suppkey = l_suppkey
JOIN supplier ON s_suppkey = ps_suppkey
JOIN nation ON s_nationkey = n_nationkey
WHERE p_brand = 'Brand#13' AND p_type LIKE 'STANDARD%BRASS' AND n_regionkey IN (0, 3)
GROUP BY s_name
ORDER BY lines DESC, s_name
LIMIT 20;

-- name: popular_parts_semi
-- Semi join on a skewed key: the parts that more than 40 lines order (a handful of Zipf-popular parts carry
-- a large share of lineitem; the model cannot estimate the HAVING). Four tables and a semi join.
SELECT p_brand, count(*) AS lines, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM lineitem JOIN part ON l_partkey = p_partkey
JOIN orders ON l_orderkey = o_orderkey
JOIN customer ON o_custkey = c_custkey
WHERE l_partkey IN (SELECT l_partkey FROM lineitem GROUP BY l_partkey HAVING count(*) > 40)
  AND o_orderdate < '1996-01-01'
GROUP BY p_brand
ORDER BY p_brand;

-- name: big_customers_orders
-- Skewed customers: a few customers place a large share of the orders (Zipf o_custkey), so the orders of the
-- customers with more than 30 orders are many more than the model's uniform spread predicts. Three tables.
SELECT c_name, count(*) AS lines, sum(l_quantity) AS quantity
FROM customer JOIN orders ON o_custkey = c_custkey
JOIN lineitem ON l_orderkey = o_orderkey
WHERE c_custkey IN (SELECT o_custkey FROM orders GROUP BY o_custkey HAVING count(*) > 30)
  AND l_returnflag = 'R'
GROUP BY c_name
ORDER BY lines DESC, c_name
LIMIT 15;

-- name: six_way_correlated
-- Six tables, two correlated pairs at once: segment with nation, type with brand.
SELECT r_name, p_brand, count(*) AS lines, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM region JOIN nation ON n_regionkey = r_regionkey
JOIN customer ON c_nationkey = n_nationkey
JOIN orders ON o_custkey = c_custkey
JOIN lineitem ON l_orderkey = o_orderkey
JOIN part ON l_partkey = p_partkey
WHERE c_mktsegment = 'FURNITURE' AND n_nationkey IN (2, 7, 12, 17, 22)
  AND p_brand IN ('Brand#24', 'Brand#35') AND p_type LIKE '%STEEL'
GROUP BY r_name, p_brand
ORDER BY r_name, p_brand;

-- name: popular_suppliers
-- Skewed ps_suppkey: a few suppliers supply many parts, and through l_suppkey many lines. Five tables; the
-- filter on the supplier's partsupp count is a semi join the model cannot estimate.
SELECT n_name, count(*) AS lines, sum(l_quantity) AS quantity
FROM supplier JOIN nation ON s_nationkey = n_nationkey
JOIN partsupp ON ps_suppkey = s_suppkey
JOIN lineitem ON l_partkey = ps_partkey AND l_suppkey = ps_suppkey
JOIN orders ON l_orderkey = o_orderkey
WHERE s_suppkey IN (SELECT ps_suppkey FROM partsupp GROUP BY ps_suppkey HAVING count(*) > 200)
  AND o_orderstatus = 'F'
GROUP BY n_name
ORDER BY n_name;

-- name: exists_shipmode_customers
-- Semi join (EXISTS) over a correlated pair: customers of the BUILDING-heavy nations with a TRUCK or MAIL line
-- shipped NONE (instruction NONE mostly ships by TRUCK or MAIL). Three tables in the subquery's reach.
SELECT c_mktsegment, count(*) AS customers, sum(c_acctbal) AS balance
FROM customer JOIN nation ON c_nationkey = n_nationkey
WHERE n_name IN ('ARGENTINA', 'FRANCE', 'IRAQ')
  AND EXISTS (SELECT 1 FROM orders JOIN lineitem ON l_orderkey = o_orderkey
              WHERE o_custkey = c_custkey AND l_shipinstruct = 'NONE' AND l_shipmode IN ('TRUCK', 'MAIL'))
GROUP BY c_mktsegment
ORDER BY c_mktsegment;

-- name: anti_join_popular_parts
-- Anti join on a skewed key: lines of MEDIUM brass-like parts (Brand#3N) whose order has no line of a
-- popular part. Four tables.
SELECT p_type, count(*) AS lines
FROM lineitem JOIN part ON l_partkey = p_partkey
JOIN orders ON l_orderkey = o_orderkey
JOIN customer ON o_custkey = c_custkey
WHERE p_brand LIKE 'Brand#3%' AND p_type LIKE 'MEDIUM%'
  AND NOT EXISTS (SELECT 1 FROM lineitem l2 WHERE l2.l_orderkey = o_orderkey AND l2.l_partkey IN
                  (SELECT l_partkey FROM lineitem GROUP BY l_partkey HAVING count(*) > 40))
GROUP BY p_type
ORDER BY p_type;

-- name: correlated_self_join
-- A lineitem self join within orders, both sides filtered on the correlated instruction/mode pair (COLLECT COD
-- ships by RAIL or SHIP): the model multiplies four independent selectivities. Four tables.
SELECT c_mktsegment, count(*) AS pairs, sum(a.l_quantity + b.l_quantity) AS quantity
FROM lineitem a JOIN lineitem b ON a.l_orderkey = b.l_orderkey AND a.l_linenumber < b.l_linenumber
JOIN orders ON a.l_orderkey = o_orderkey
JOIN customer ON o_custkey = c_custkey
WHERE a.l_shipinstruct = 'COLLECT COD' AND a.l_shipmode = 'RAIL'
  AND b.l_shipinstruct = 'COLLECT COD' AND b.l_shipmode = 'SHIP'
GROUP BY c_mktsegment
ORDER BY c_mktsegment;
