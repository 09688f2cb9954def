-- A LEFT join under inner joins of its preserved side (orders ⟕ a filtered lineitem, then customer and nation):
-- the join order may apply it before or after the inner joins; orders without a matching line keep NULLs.
select n_name, count(*) as n, count(l_orderkey) as matched, sum(l_quantity) as qty
from orders
    left join (select l_orderkey, l_quantity from lineitem where l_quantity > 45) big on l_orderkey = o_orderkey
    join customer on c_custkey = o_custkey
    join nation on n_nationkey = c_nationkey
where o_orderkey < 20000
group by n_name
order by n_name
