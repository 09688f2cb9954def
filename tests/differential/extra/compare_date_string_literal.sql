-- A DATE column compared with string literals (both operand orders).
select o_orderpriority, count(*) as n, min(o_orderdate) as first, max(o_orderdate) as last
from orders
where o_orderdate >= '1995-01-01'
    and '1995-04-01' > o_orderdate
group by o_orderpriority
order by o_orderpriority
