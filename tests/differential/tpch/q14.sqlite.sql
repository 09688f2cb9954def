-- SQLite twin of q14.sql (same query; see that file for parameters and ORDER BY notes).
-- date arithmetic (date ± interval) → date(d, '±N days|months|years')
-- DATE literals → plain 'YYYY-MM-DD' text (dates are TEXT in SQLite)
select
    100.00 * sum(case
        when p_type like 'PROMO%'
            then l_extendedprice * (1 - l_discount)
        else 0
    end) / sum(l_extendedprice * (1 - l_discount)) as promo_revenue
from
    lineitem,
    part
where
    l_partkey = p_partkey
    and l_shipdate >= '1995-09-01'
    and l_shipdate < date('1995-09-01', '+1 months')
