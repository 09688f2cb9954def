-- ORDER BY aliases, DESC then ASC.
select c_nationkey as nk, count(*) as cnt
from customer
group by c_nationkey
order by cnt desc, nk
