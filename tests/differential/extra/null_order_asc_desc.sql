-- ORDER BY on a nullable key: ASC NULLS LAST and DESC NULLS FIRST written explicitly
-- (SQLite's defaults are the opposite of Hindsight's).
select c_custkey, case when c_nationkey < 5 then null else c_nationkey end as k
from customer
where c_custkey <= 40
order by k desc nulls first, c_custkey asc nulls last
