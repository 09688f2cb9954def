-- RIGHT JOIN with a filter in ON: the customers come back even without matching orders.
select c_custkey, o_orderkey
from orders right outer join customer on o_custkey = c_custkey and o_orderdate < '1993-01-01'
where c_custkey <= 120
order by c_custkey, o_orderkey nulls first
