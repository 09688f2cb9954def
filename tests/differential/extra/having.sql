-- HAVING on aggregates, one of them not in the select list.
select o_custkey, count(*) as n
from orders
group by o_custkey
having count(*) > 20 and sum(o_totalprice) > 1000000
order by o_custkey
