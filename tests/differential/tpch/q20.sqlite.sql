-- SQLite twin of q20.sql (same query; see that file for parameters and ORDER BY notes).
-- date arithmetic (date ± interval) → date(d, '±N days|months|years')
-- DATE literals → plain 'YYYY-MM-DD' text (dates are TEXT in SQLite)
select
    s_name,
    s_address
from
    supplier,
    nation
where
    s_suppkey in (
        select
            ps_suppkey
        from
            partsupp
        where
            ps_partkey in (
                select
                    p_partkey
                from
                    part
                where
                    p_name like 'forest%'
            )
            and ps_availqty > (
                select
                    0.5 * sum(l_quantity)
                from
                    lineitem
                where
                    l_partkey = ps_partkey
                    and l_suppkey = ps_suppkey
                    and l_shipdate >= '1994-01-01'
                    and l_shipdate < date('1994-01-01', '+1 years')
            )
    )
    and s_nationkey = n_nationkey
    and n_name = 'CANADA'
order by
    s_name
