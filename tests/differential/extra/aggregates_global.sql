-- Aggregates without GROUP BY (one row), several COUNT(DISTINCT).
select
    count(*) as n,
    count(distinct o_custkey) as customers,
    count(distinct o_orderpriority) as priorities,
    min(o_totalprice) as min_total,
    max(o_orderdate) as last_date,
    sum(o_shippriority) as ship
from orders
