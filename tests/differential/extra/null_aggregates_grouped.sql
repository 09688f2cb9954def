-- NULLs in aggregates: COUNT(x), SUM, MIN, MAX, AVG skip NULLs; COUNT(*) does not.
select
    c_mktsegment,
    count(*) as all_rows,
    count(o_orderkey) as orders,
    count(distinct o_orderpriority) as priorities,
    sum(o_totalprice) as total,
    min(o_orderdate) as first,
    max(o_orderkey) as max_key,
    avg(o_shippriority) as avg_shippriority
from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-03-01'
group by c_mktsegment
order by c_mktsegment
