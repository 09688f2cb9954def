-- GROUP BY an arithmetic expression (integer division).
select c_nationkey / 5 as bucket, count(*) as n, min(c_custkey) as first
from customer
group by c_nationkey / 5
order by bucket
