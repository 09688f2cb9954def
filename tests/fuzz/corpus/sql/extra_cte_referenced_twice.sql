-- One CTE referenced twice (a self-join of the CTE).
with seg as (
    select c_mktsegment, c_nationkey, count(*) as n, sum(c_acctbal) as bal
    from customer
    group by c_mktsegment, c_nationkey
)
select a.c_nationkey, a.c_mktsegment as seg1, b.c_mktsegment as seg2, a.n + b.n as n
from seg a join seg b on a.c_nationkey = b.c_nationkey and a.c_mktsegment < b.c_mktsegment
where a.c_nationkey < 5
order by a.c_nationkey, seg1, seg2
