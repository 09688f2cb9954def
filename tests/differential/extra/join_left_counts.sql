-- LEFT JOIN keeps customers without orders (count 0, NULL max).
select c_custkey, count(o_orderkey) as n, max(o_orderdate) as last_order
from customer left outer join orders on o_custkey = c_custkey
where c_custkey <= 100
group by c_custkey
order by c_custkey
