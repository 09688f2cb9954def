-- Two LEFT joins on the preserved side's tables and an inner join between them: each may be applied as soon as
-- the table its ON reads is there; counts of NULL-extended rows must not change.
select o_orderpriority, count(*) as n, count(ps_partkey) as with_ps, count(p_partkey) as with_part
from lineitem
    join orders on o_orderkey = l_orderkey
    left join partsupp on ps_partkey = l_partkey and ps_suppkey = l_suppkey and ps_availqty < 100
    left join part on p_partkey = l_partkey and p_size = 1
where o_orderkey between 1000 and 9000
group by o_orderpriority
order by o_orderpriority
