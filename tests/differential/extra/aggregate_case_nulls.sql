-- SUM/COUNT over CASE without ELSE (NULL for the other rows).
select
    o_orderstatus,
    sum(case when o_orderpriority = '1-URGENT' then o_totalprice end) as urgent_total,
    count(case when o_orderpriority = '1-URGENT' then 1 end) as urgent,
    count(*) as n
from orders
group by o_orderstatus
order by o_orderstatus
