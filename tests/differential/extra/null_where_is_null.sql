-- IS NULL in WHERE on the outer side of a LEFT JOIN (an anti-join).
select c_mktsegment, count(*) as customers_without_orders
from customer left join orders on c_custkey = o_custkey
where o_orderkey is null
group by c_mktsegment
order by c_mktsegment
