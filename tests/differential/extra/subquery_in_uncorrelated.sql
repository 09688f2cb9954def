-- IN (subquery), not correlated.
select o_orderpriority, count(*) as n
from orders
where o_custkey in (select c_custkey from customer where c_mktsegment = 'AUTOMOBILE')
group by o_orderpriority
order by o_orderpriority
