-- IN (subquery) correlated with the outer row.
select s_suppkey, s_name
from supplier
where s_nationkey in (select c_nationkey from customer where c_acctbal > s_acctbal + 9000)
order by s_suppkey
