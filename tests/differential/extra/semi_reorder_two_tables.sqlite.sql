-- SQLite twin: the same semi join as a row-value IN (SQLite runs the correlated EXISTS as a nested loop).
select o_orderkey, c_name, count(*) as lines
from lineitem l0, orders, customer, nation, region
where l0.l_orderkey = o_orderkey and o_custkey = c_custkey and c_nationkey = n_nationkey
  and n_regionkey = r_regionkey and r_name = 'ASIA'
  and (o_orderkey, c_nationkey) in (select l_orderkey, l_suppkey from lineitem where l_quantity > 40)
group by o_orderkey, c_name
order by o_orderkey
