-- Q20's shape in small: a comparison with a decorrelated SUM rejects the rows without orders (NULL sum).
select c_custkey, c_acctbal
from customer
where c_custkey in (select o_custkey from orders where o_orderpriority = '1-URGENT')
  and c_acctbal * 100 > (select 0.5 * sum(o_totalprice) from orders where o_custkey = c_custkey
                         and o_orderdate < '1994-01-01')
order by c_custkey
