-- SQLite twin of q04.sql (same query; see that file for parameters and ORDER BY notes).
-- date arithmetic (date ± interval) → date(d, '±N days|months|years')
-- DATE literals → plain 'YYYY-MM-DD' text (dates are TEXT in SQLite)
select
    o_orderpriority,
    count(*) as order_count
from
    orders
where
    o_orderdate >= '1993-07-01'
    and o_orderdate < date('1993-07-01', '+3 months')
    and exists (
        select
            *
        from
            lineitem
        where
            l_orderkey = o_orderkey
            and l_commitdate < l_receiptdate
    )
group by
    o_orderpriority
order by
    o_orderpriority
