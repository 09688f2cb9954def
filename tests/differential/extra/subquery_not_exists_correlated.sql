-- NOT EXISTS correlated: customers without any order.
select c_mktsegment, count(*) as n
from customer
where not exists (select * from orders where o_custkey = c_custkey)
group by c_mktsegment
order by c_mktsegment
