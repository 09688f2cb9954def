-- ORDER BY a string DESC with a tie-breaker.
select c_name, c_mktsegment
from customer
where c_custkey <= 50
order by c_mktsegment desc, c_name
