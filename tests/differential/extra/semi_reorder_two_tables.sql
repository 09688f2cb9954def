-- A semi join whose predicate reads two tables of the join (orders and customer): it may go below the join with
-- lineitem l0, never below the join of orders and customer.
select o_orderkey, c_name, count(*) as lines
from lineitem l0, orders, customer, nation, region
where l0.l_orderkey = o_orderkey and o_custkey = c_custkey and c_nationkey = n_nationkey
  and n_regionkey = r_regionkey and r_name = 'ASIA'
  and exists (select 1 from lineitem where l_orderkey = o_orderkey and l_suppkey = c_nationkey and l_quantity > 40)
group by o_orderkey, c_name
order by o_orderkey
