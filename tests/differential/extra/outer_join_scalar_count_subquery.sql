-- A decorrelated COUNT compares COALESCE(count, 0): customers with no order pass, so the LEFT join of
-- the aggregate must stay; the SUM in the second conjunct would be NULL for them (strict).
select c_custkey
from customer
where c_custkey <= 200
  and 2 > (select count(*) from orders where o_custkey = c_custkey and o_orderdate < '1994-01-01')
order by c_custkey
