-- GROUP BY on a join key of two tables hashed alike (orders and lineitem on the order key): at more than one worker
-- lineitem probes orders co-located, its output hashed on l_orderkey and so on the equal o_orderkey too (mapping
-- =key), and the aggregate runs in one phase without a repartition (tests/sql/join_order/aggregate_distribution.test);
-- the sums must not change.
select o_orderkey, o_orderdate, sum(l_extendedprice) as total, count(*) as lines
from lineitem, orders, customer
where l_orderkey = o_orderkey and o_custkey = c_custkey and l_returnflag = 'R' and c_mktsegment = 'BUILDING'
group by o_orderkey, o_orderdate
order by o_orderkey
