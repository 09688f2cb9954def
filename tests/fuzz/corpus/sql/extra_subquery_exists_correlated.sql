-- EXISTS correlated: customers with an order above 300000.
select c_mktsegment, count(*) as n
from customer
where exists (select 1 from orders where o_custkey = c_custkey and o_totalprice > 300000)
group by c_mktsegment
order by c_mktsegment
