-- DESC NULLS LAST and ASC NULLS FIRST (the non-default placements).
select c_custkey, case when c_nationkey < 5 then null else c_nationkey end as k
from customer
where c_custkey <= 40
order by k desc nulls last, c_custkey
