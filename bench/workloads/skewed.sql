-- Skewed multi-join queries: joins of 2 to 8 tables whose filters the cardinality model gets wrong on
-- `hindsight gen tpch --skew 1` data (planner/storage/tpch_generator.hpp): there o_custkey, l_partkey and
-- ps_suppkey are Zipf-skewed, c_mktsegment follows the nation (customer's nation % 5 picks the segment for 90 %
-- of them), l_shipmode follows l_shipinstruct (80 %) and p_type follows p_brand (80 %: Brand#MN has type
-- syllables M and N). The model multiplies independent selectivities and spreads keys uniformly, so correlated
-- predicates, popular keys, LIKE on correlated text and semi joins on skewed keys are misestimated. Queries
-- also combine several pairs at once, take the most popular keys (`IN (SELECT ... ORDER BY count(*) DESC, key
-- LIMIT n)`), use anti-correlated pairs the model overestimates, the orders' and lines' correlated dates, EXISTS,
-- NOT EXISTS and NOT IN, LEFT joins, GROUP BY and HAVING on skewed keys and correlated subqueries.
--
-- The figure in a query's comment ("the model: 10 lines ..., actual 731") is its worst q-error where it matters,
-- from `hindsight explain --analyze --set workers=2 --set stats_scope=off` on `gen tpch --sf 0.1 --skew 1` data
-- (stats_scope = off: the model alone, without what earlier runs observed).
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

-- name: three_pairs_seven_way
-- Seven tables, three correlated pairs at once: BUILDING is the segment of FRANCE's, IRAQ's and VIETNAM's
-- customers, Brand#41/#44 parts are mostly LARGE, instruction NONE mostly ships by TRUCK or MAIL. The model
-- multiplies six independent selectivities: 10 lines after the supplier join, actual 731 (SF 0.1).
SELECT n_name, p_brand, count(*) AS lines, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM customer JOIN nation ON c_nationkey = n_nationkey
JOIN region ON n_regionkey = r_regionkey
JOIN orders ON o_custkey = c_custkey
JOIN lineitem ON l_orderkey = o_orderkey
JOIN part ON p_partkey = l_partkey
JOIN supplier ON s_suppkey = l_suppkey
WHERE n_name IN ('FRANCE', 'VIETNAM', 'IRAQ') AND c_mktsegment = 'BUILDING'
  AND p_brand IN ('Brand#41', 'Brand#44') AND p_type LIKE 'LARGE%'
  AND l_shipinstruct = 'NONE' AND l_shipmode IN ('TRUCK', 'MAIL') AND r_name <> 'AFRICA'
GROUP BY n_name, p_brand
ORDER BY n_name, p_brand;

-- name: anti_correlated_segment
-- Anti-correlated, the model overestimates: AUTOMOBILE and FURNITURE customers are rare in the BUILDING nations
-- (1, 6, 11, 16, 21), and DELIVER IN PERSON lines rarely ship by RAIL, SHIP, TRUCK or MAIL. Four tables; the
-- model: 6.2k lines after the lineitem join, actual 84 (SF 0.1).
SELECT n_name, count(*) AS lines, sum(l_extendedprice) AS price
FROM customer JOIN nation ON c_nationkey = n_nationkey
JOIN orders ON o_custkey = c_custkey
JOIN lineitem ON l_orderkey = o_orderkey
WHERE c_mktsegment IN ('AUTOMOBILE', 'FURNITURE') AND n_nationkey IN (1, 6, 11, 16, 21)
  AND l_shipinstruct = 'DELIVER IN PERSON' AND l_shipmode IN ('RAIL', 'SHIP', 'TRUCK', 'MAIL')
GROUP BY n_name
ORDER BY n_name;

-- name: like_brand_and_type
-- LIKE on correlated text: Brand#4N parts are mostly LARGE, Brand#N1 mostly TIN, so Brand#41 carries most of
-- 'LARGE%' AND '%TIN' (the model: 1/5 of the LIKEs' shares). Four tables; the model: 340 lines after the
-- supplier join, actual 16k (SF 0.1).
SELECT p_mfgr, count(*) AS lines, sum(l_extendedprice) AS price
FROM part JOIN lineitem ON l_partkey = p_partkey
JOIN partsupp ON ps_partkey = l_partkey AND ps_suppkey = l_suppkey
JOIN supplier ON s_suppkey = ps_suppkey
WHERE p_brand LIKE 'Brand#4%' AND p_type LIKE 'LARGE%' AND p_type LIKE '%TIN' AND ps_availqty > 5000
GROUP BY p_mfgr
ORDER BY p_mfgr;

-- name: shipdate_follows_orderdate
-- Correlated dates (a line ships 1 to 121 days after its order, is received 1 to 30 days after shipping): the
-- model multiplies a month of orders by the lines' ship and receipt windows. Three tables; the model: 46 lines
-- after the customer join, actual 1.2k (SF 0.1).
SELECT o_orderpriority, count(*) AS lines, sum(l_quantity) AS quantity
FROM orders JOIN lineitem ON l_orderkey = o_orderkey
JOIN customer ON o_custkey = c_custkey
WHERE o_orderdate >= '1994-03-01' AND o_orderdate < '1994-04-01'
  AND l_shipdate >= '1994-03-01' AND l_shipdate < '1994-04-15' AND l_receiptdate < '1994-04-20'
GROUP BY o_orderpriority
ORDER BY o_orderpriority;

-- name: eight_way_building_brass
-- Eight tables (part, lineitem, supplier, orders, customer, two nations, region) with a LIKE on correlated text:
-- Brand#23 parts are mostly 'SMALL ... BRASS'. The model: 27 parts, actual 617 (SF 0.1), and every join above.
SELECT n2.n_name, count(*) AS lines, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM part JOIN lineitem ON p_partkey = l_partkey
JOIN supplier ON s_suppkey = l_suppkey
JOIN orders ON l_orderkey = o_orderkey
JOIN customer ON o_custkey = c_custkey
JOIN nation n1 ON c_nationkey = n1.n_nationkey
JOIN region ON n1.n_regionkey = r_regionkey
JOIN nation n2 ON s_nationkey = n2.n_nationkey
WHERE r_name = 'AMERICA' AND c_mktsegment = 'BUILDING' AND p_brand = 'Brand#23' AND p_type LIKE 'SMALL%BRASS'
  AND o_orderdate BETWEEN '1995-01-01' AND '1996-12-31'
GROUP BY n2.n_name
ORDER BY n2.n_name;

-- name: in_household_customers
-- A semi join (IN) whose filter the model cannot see through: HOUSEHOLD is the segment of nations 4, 9, 14, 19
-- and 24, plus Brand#12/#15 parts mostly STANDARD and TAKE BACK RETURN lines mostly by FOB or REG AIR. Four
-- tables; the model: 54 lines after the semi join, actual 1.8k (SF 0.1).
SELECT p_brand, count(*) AS lines, sum(l_extendedprice) AS price
FROM orders JOIN lineitem ON l_orderkey = o_orderkey
JOIN part ON p_partkey = l_partkey
WHERE o_custkey IN (SELECT c_custkey FROM customer
                    WHERE c_mktsegment = 'HOUSEHOLD' AND c_nationkey IN (4, 9, 14, 19, 24))
  AND p_brand IN ('Brand#12', 'Brand#15') AND p_type LIKE 'STANDARD%'
  AND l_shipinstruct = 'TAKE BACK RETURN' AND l_shipmode IN ('FOB', 'REG AIR')
GROUP BY p_brand
ORDER BY p_brand;

-- name: top_customers_lines
-- Skewed customers: the 5 customers with the most orders (Zipf o_custkey) place about a quarter of all orders;
-- the model spreads the orders uniformly over the customers. Three tables and a semi join; the model: 323 lines,
-- actual 140k (SF 0.1).
SELECT o_orderpriority, count(*) AS lines, sum(l_quantity) AS quantity
FROM orders JOIN lineitem ON l_orderkey = o_orderkey
JOIN part ON p_partkey = l_partkey
WHERE o_custkey IN (SELECT o_custkey FROM orders GROUP BY o_custkey ORDER BY count(*) DESC, o_custkey LIMIT 5)
  AND p_size < 20
GROUP BY o_orderpriority
ORDER BY o_orderpriority;

-- name: most_popular_part
-- Skewed parts: the most ordered part (Zipf l_partkey) has about a tenth of all lines; the model gives it the
-- average 30. Three tables and a semi join; the model: 30 lines up to the customer join, actual 57k (SF 0.1).
SELECT c_mktsegment, count(*) AS lines, sum(l_extendedprice) AS price
FROM lineitem JOIN orders ON l_orderkey = o_orderkey
JOIN customer ON o_custkey = c_custkey
WHERE l_partkey IN (SELECT l_partkey FROM lineitem GROUP BY l_partkey ORDER BY count(*) DESC, l_partkey LIMIT 1)
GROUP BY c_mktsegment
ORDER BY c_mktsegment;

-- name: top_suppliers_brass
-- Skewed suppliers: the 3 suppliers with the most partsupp rows (Zipf ps_suppkey, inherited by l_suppkey) and
-- their lines of BRASS parts. Four tables and a semi join; the model: 46 lines after the partsupp join, actual
-- 21k (SF 0.1).
SELECT s_name, count(*) AS lines, sum(l_quantity) AS quantity
FROM supplier JOIN partsupp ON ps_suppkey = s_suppkey
JOIN part ON p_partkey = ps_partkey
JOIN lineitem ON l_partkey = ps_partkey AND l_suppkey = ps_suppkey
WHERE s_suppkey IN (SELECT ps_suppkey FROM partsupp GROUP BY ps_suppkey
                    ORDER BY count(*) DESC, ps_suppkey LIMIT 3)
  AND p_type LIKE '%BRASS'
GROUP BY s_name
ORDER BY s_name;

-- name: top_supplier_lines
-- Skewed suppliers through lineitem: the 2 suppliers with the most lines, spread by the model over 1/500 of
-- lineitem. Five tables and a semi join; the model: 1.2k lines, actual 107k (SF 0.1).
SELECT n_name, c_mktsegment, count(*) AS lines, sum(l_extendedprice) AS price
FROM lineitem JOIN supplier ON l_suppkey = s_suppkey
JOIN nation ON s_nationkey = n_nationkey
JOIN orders ON l_orderkey = o_orderkey
JOIN customer ON o_custkey = c_custkey
WHERE l_suppkey IN (SELECT l_suppkey FROM lineitem GROUP BY l_suppkey ORDER BY count(*) DESC, l_suppkey LIMIT 2)
GROUP BY n_name, c_mktsegment
ORDER BY n_name, c_mktsegment;

-- name: top_customer_suppliers
-- Skewed customers and suppliers at once: the lines of the 2 biggest customers, joined to partsupp and supplier
-- on the (skewed) supplier key. Five tables and a semi join; the model: 8 lines, actual 47k (SF 0.1).
SELECT n_name, count(*) AS lines, count(DISTINCT l_suppkey) AS suppliers
FROM orders JOIN lineitem ON l_orderkey = o_orderkey
JOIN supplier ON s_suppkey = l_suppkey
JOIN partsupp ON ps_partkey = l_partkey AND ps_suppkey = l_suppkey
JOIN nation ON s_nationkey = n_nationkey
WHERE o_custkey IN (SELECT o_custkey FROM orders GROUP BY o_custkey ORDER BY count(*) DESC, o_custkey LIMIT 2)
  AND ps_supplycost < 500
GROUP BY n_name
ORDER BY n_name;

-- name: popular_part_pairs
-- A lineitem self join within orders of lines of the most popular part with lines of the 5 most popular parts:
-- both sides are popular keys the model reads as average ones. Two tables (lineitem twice) and two semi joins;
-- the model: 1 line of the top part, actual 50k (SF 0.1).
SELECT a.l_shipmode, count(*) AS pairs, sum(a.l_quantity * b.l_quantity) AS quantity
FROM lineitem a JOIN lineitem b ON a.l_orderkey = b.l_orderkey AND a.l_linenumber <> b.l_linenumber
WHERE a.l_partkey IN (SELECT l_partkey FROM lineitem GROUP BY l_partkey ORDER BY count(*) DESC, l_partkey LIMIT 1)
  AND b.l_partkey IN (SELECT l_partkey FROM lineitem GROUP BY l_partkey ORDER BY count(*) DESC, l_partkey LIMIT 5)
GROUP BY a.l_shipmode
ORDER BY a.l_shipmode;

-- name: orders_with_popular_parts
-- A nested semi join on a skewed key: orders with a line of one of the 3 most popular parts. Three tables and
-- two semi joins; the model: 91 lines of those parts, actual 105k (SF 0.1).
SELECT c_mktsegment, count(*) AS orders, sum(o_totalprice) AS total
FROM orders JOIN customer ON o_custkey = c_custkey
WHERE o_orderkey IN (SELECT l_orderkey FROM lineitem WHERE l_partkey IN
                     (SELECT l_partkey FROM lineitem GROUP BY l_partkey
                      ORDER BY count(*) DESC, l_partkey LIMIT 3))
GROUP BY c_mktsegment
ORDER BY c_mktsegment;

-- name: exists_economy_nickel_lines
-- EXISTS over two correlated pairs: MACHINERY is the segment of nations 3, 8, 13, 18 and 23, Brand#52 parts are
-- mostly 'ECONOMY ... NICKEL', COLLECT COD lines mostly ship by RAIL or SHIP. Four tables in the semi join's
-- reach; the model: 2 orders after the customer join, actual 412 (SF 0.1).
SELECT o_orderpriority, count(*) AS orders, sum(o_totalprice) AS total
FROM orders JOIN customer ON o_custkey = c_custkey
WHERE c_mktsegment = 'MACHINERY' AND c_nationkey IN (3, 8, 13, 18, 23)
  AND EXISTS (SELECT 1 FROM lineitem JOIN part ON p_partkey = l_partkey
              WHERE l_orderkey = o_orderkey AND p_brand = 'Brand#52' AND p_type LIKE 'ECONOMY%NICKEL'
                AND l_shipinstruct = 'COLLECT COD' AND l_shipmode IN ('RAIL', 'SHIP'))
GROUP BY o_orderpriority
ORDER BY o_orderpriority;

-- name: exists_brand_type_suppliers
-- EXISTS over a correlated LIKE on a skewed key: suppliers with a partsupp row of a Brand#33 'MEDIUM ... BRASS'
-- part (Brand#33 parts are mostly that type; ps_suppkey is Zipf). Four tables; the model: 152 partsupp rows of
-- those parts, actual 2.8k (SF 0.1).
SELECT n_name, count(*) AS suppliers, sum(s_acctbal) AS balance
FROM supplier JOIN nation ON s_nationkey = n_nationkey
WHERE EXISTS (SELECT 1 FROM partsupp JOIN part ON p_partkey = ps_partkey
              WHERE ps_suppkey = s_suppkey AND p_brand = 'Brand#33' AND p_type LIKE 'MEDIUM%BRASS')
GROUP BY n_name
ORDER BY n_name;

-- name: not_in_brand_suppliers
-- NOT IN (a null-aware anti join) over a correlated LIKE: the suppliers that supply no Brand#52
-- 'ECONOMY ... NICKEL' part. Four tables; the model: 88 partsupp rows of those parts, actual 2.5k (SF 0.1).
SELECT n_name, count(*) AS suppliers
FROM supplier JOIN nation ON s_nationkey = n_nationkey
WHERE s_suppkey NOT IN (SELECT ps_suppkey FROM partsupp JOIN part ON p_partkey = ps_partkey
                        WHERE p_brand = 'Brand#52' AND p_type LIKE 'ECONOMY%NICKEL')
GROUP BY n_name
ORDER BY n_name;

-- name: not_in_top_parts_orders
-- NOT IN over a skewed key: orders since 1996 without a line of the 100 most popular parts, which carry about
-- half of all lines. Three tables and a semi join inside the anti join; the model: 3.0k lines of those parts,
-- actual 297k (SF 0.1).
SELECT o_orderpriority, count(*) AS orders, sum(o_totalprice) AS total
FROM orders JOIN customer ON o_custkey = c_custkey
WHERE o_orderdate >= '1996-01-01'
  AND o_orderkey NOT IN (SELECT l_orderkey FROM lineitem WHERE l_partkey IN
                         (SELECT l_partkey FROM lineitem GROUP BY l_partkey
                          ORDER BY count(*) DESC, l_partkey LIMIT 100))
GROUP BY o_orderpriority
ORDER BY o_orderpriority;

-- name: left_join_fob_lines
-- LEFT join filtered on a correlated pair in its ON clause (TAKE BACK RETURN lines mostly ship by FOB), of parts
-- filtered on another (Brand#5N parts are mostly ECONOMY). Two tables; the model: 754 rows out of the LEFT join,
-- actual 13k (SF 0.1).
SELECT p_brand, count(DISTINCT p_partkey) AS parts, count(l_orderkey) AS lines, sum(l_quantity) AS quantity
FROM part LEFT JOIN lineitem
  ON l_partkey = p_partkey AND l_shipinstruct = 'TAKE BACK RETURN' AND l_shipmode = 'FOB'
WHERE p_brand LIKE 'Brand#5%' AND p_type LIKE 'ECONOMY%'
GROUP BY p_brand
ORDER BY p_brand;

-- name: left_join_top_parts
-- LEFT join of the 10 most popular parts to their COLLECT COD / RAIL lines: skewed keys on the preserved side
-- and a correlated pair in the ON clause. Two tables and a semi join; the model: 10 parts, actual 18k lines
-- (SF 0.1).
SELECT p_brand, count(DISTINCT p_partkey) AS parts, count(l_orderkey) AS lines, sum(l_quantity) AS quantity
FROM part LEFT JOIN lineitem ON l_partkey = p_partkey AND l_shipinstruct = 'COLLECT COD' AND l_shipmode = 'RAIL'
WHERE p_partkey IN (SELECT l_partkey FROM lineitem GROUP BY l_partkey ORDER BY count(*) DESC, l_partkey LIMIT 10)
GROUP BY p_brand
ORDER BY p_brand;

-- name: group_by_popular_customer
-- GROUP BY a skewed key: lines per customer of the BUILDING-heavy nations 1 and 6 shipped COLLECT COD by RAIL,
-- the biggest customers first. Three tables; the model: 311 lines after the lineitem join, actual 4.3k (SF 0.1).
SELECT c_custkey, c_name, count(*) AS lines, sum(l_extendedprice) AS price
FROM customer JOIN orders ON o_custkey = c_custkey
JOIN lineitem ON l_orderkey = o_orderkey
WHERE c_mktsegment = 'BUILDING' AND c_nationkey IN (1, 6)
  AND l_shipmode = 'RAIL' AND l_shipinstruct = 'COLLECT COD'
GROUP BY c_custkey, c_name
ORDER BY lines DESC, c_custkey
LIMIT 10;

-- name: having_heavy_mail_customers
-- GROUP BY a skewed key with HAVING: customers with more than 50 lines shipped NONE by MAIL (a few Zipf-heavy
-- customers do). Two tables; the model: 2.8k groups pass the HAVING, actual 134 (SF 0.1).
SELECT o_custkey, count(*) AS lines, sum(l_quantity) AS quantity
FROM orders JOIN lineitem ON l_orderkey = o_orderkey
WHERE l_shipinstruct = 'NONE' AND l_shipmode = 'MAIL'
GROUP BY o_custkey
HAVING count(*) > 50
ORDER BY lines DESC, o_custkey
LIMIT 10;

-- name: heavy_customers_derived
-- A derived table grouped on a skewed key and filtered on its count (customers with more than 40 COLLECT COD /
-- RAIL lines), joined back to customer. Three tables; the model: 2.8k customers, actual 172 (SF 0.1).
SELECT c_mktsegment, count(*) AS customers, sum(t.lines) AS lines
FROM customer JOIN (SELECT o_custkey, count(*) AS lines FROM orders JOIN lineitem ON l_orderkey = o_orderkey
                    WHERE l_shipinstruct = 'COLLECT COD' AND l_shipmode = 'RAIL'
                    GROUP BY o_custkey) t ON t.o_custkey = c_custkey
WHERE t.lines > 40
GROUP BY c_mktsegment
ORDER BY c_mktsegment;

-- name: correlated_part_avg
-- A correlated subquery (decorrelated into a join with an aggregate per part), TPC-H Q17-like, on parts of a
-- correlated pair (Brand#45 parts are mostly 'LARGE ... COPPER'). Two tables (lineitem twice); the model: 3
-- lines of those parts, actual 660 (SF 0.1).
SELECT p_brand, count(*) AS lines, sum(l_extendedprice) AS price
FROM lineitem JOIN part ON p_partkey = l_partkey
WHERE p_brand = 'Brand#45' AND p_type LIKE 'LARGE%COPPER'
  AND l_quantity < (SELECT 0.5 * avg(l2.l_quantity) FROM lineitem l2 WHERE l2.l_partkey = p_partkey)
GROUP BY p_brand
ORDER BY p_brand;

-- name: correlated_customer_max
-- A correlated scalar subquery per customer (the customer's largest order), on customers of a correlated pair
-- (AUTOMOBILE is the segment of nations 0 and 5). Three tables; the model: 58 orders after the nation join,
-- actual 725 (SF 0.1).
SELECT n_name, count(*) AS orders, sum(o_totalprice) AS total
FROM orders JOIN customer ON o_custkey = c_custkey
JOIN nation ON c_nationkey = n_nationkey
WHERE c_nationkey IN (0, 5) AND c_mktsegment = 'AUTOMOBILE'
  AND o_totalprice > (SELECT 0.8 * max(o2.o_totalprice) FROM orders o2 WHERE o2.o_custkey = c_custkey)
GROUP BY n_name
ORDER BY n_name;
