-- A LEFT join whose null-producing side a later predicate reads (WHERE coalesce(...) and an inner join's ON):
-- the LEFT join stays below them; rows whose LEFT side is NULL pass or fail as written.
select o_orderstatus, count(*) as n, sum(coalesce(l_quantity, -1)) as qty
from orders
    left join (select l_orderkey, l_quantity, l_suppkey from lineitem where l_linenumber = 7) l7 on l_orderkey = o_orderkey
    join customer on c_custkey = o_custkey
    join supplier on s_nationkey = c_nationkey and coalesce(l_suppkey, s_suppkey) = s_suppkey
where o_orderkey < 30000 and coalesce(l_quantity, 0) < 40
group by o_orderstatus
order by o_orderstatus
