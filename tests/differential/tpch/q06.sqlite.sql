-- SQLite twin of q06.sql (same query; see that file for parameters and ORDER BY notes).
-- date arithmetic (date ± interval) → date(d, '±N days|months|years')
-- DATE literals → plain 'YYYY-MM-DD' text (dates are TEXT in SQLite)
-- BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 → BETWEEN 0.05 AND 0.07: in doubles 0.06 + 0.01 < 0.07, which would drop l_discount = 0.07 rows that exact decimals keep
select
    sum(l_extendedprice * l_discount) as revenue
from
    lineitem
where
    l_shipdate >= '1994-01-01'
    and l_shipdate < date('1994-01-01', '+1 years')
    and l_discount between 0.05 and 0.07
    and l_quantity < 24
