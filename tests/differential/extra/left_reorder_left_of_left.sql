-- LEFT of LEFT: the second LEFT join's ON reads the first one's null-producing side (supplier), so it stays above
-- it; with a NULL-rejecting ON (s_nationkey = n_nationkey) and one that is not (coalesce), and an inner join on
-- the preserved side below both.
select c_mktsegment, count(*) as n, count(s_suppkey) as s, count(n1.n_nationkey) as n1, count(n2.n_nationkey) as n2
from customer
    join orders on o_custkey = c_custkey and o_orderkey < 3000
    left join supplier on s_suppkey = c_custkey and s_acctbal > 0
    left join nation n1 on n1.n_nationkey = s_nationkey
    left join nation n2 on n2.n_nationkey = coalesce(s_nationkey, 24)
group by c_mktsegment
order by c_mktsegment
