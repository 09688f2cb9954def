-- CAST of strings to DATE in predicates, and of a DATE to VARCHAR.
select o_orderkey, cast(o_orderdate as varchar) as d
from orders
where o_orderdate >= cast('1995-03-15' as date)
    and o_orderdate < cast('1995-03-18' as date)
order by o_orderkey
