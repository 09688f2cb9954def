-- A semi join whose right side holds a join with a semi join of its own.
select n_name, count(*) as n
from customer, nation, region
where c_nationkey = n_nationkey and n_regionkey = r_regionkey
  and exists (select 1 from orders, lineitem where o_custkey = c_custkey and l_orderkey = o_orderkey
              and l_quantity > 45 and exists (select 1 from part where p_partkey = l_partkey and p_size < 5))
group by n_name
order by n_name
