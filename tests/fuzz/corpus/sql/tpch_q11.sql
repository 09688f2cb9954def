-- TPC-H Q11, Important Stock Identification Query. Validation parameters: NATION = GERMANY,
-- FRACTION = 0.0001 (the spec's value for SF 1; kept at every scale factor here).
-- Tie-breaker added: the spec orders by value desc only; ps_partkey (the grouping key) is appended.
select
    ps_partkey,
    sum(ps_supplycost * ps_availqty) as value
from
    partsupp,
    supplier,
    nation
where
    ps_suppkey = s_suppkey
    and s_nationkey = n_nationkey
    and n_name = 'GERMANY'
group by
    ps_partkey
having
    sum(ps_supplycost * ps_availqty) > (
        select
            sum(ps_supplycost * ps_availqty) * 0.0001
        from
            partsupp,
            supplier,
            nation
        where
            ps_suppkey = s_suppkey
            and s_nationkey = n_nationkey
            and n_name = 'GERMANY'
    )
order by
    value desc,
    ps_partkey
