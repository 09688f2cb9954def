-- COALESCE over LEFT JOIN NULLs, with integers and strings.
select
    c_custkey,
    coalesce(t.order_count, 0) as order_count,
    coalesce(cast(t.order_count as varchar), 'none') as label,
    coalesce(t.last_order, c_mktsegment) as last_or_segment
from customer
    left join (
        select o_custkey, count(*) as order_count, max(o_orderpriority) as last_order
        from orders
        group by o_custkey
    ) t on c_custkey = t.o_custkey
where c_custkey <= 60
order by c_custkey
