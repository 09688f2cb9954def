-- SQLite twin of cast_date.sql: CAST('YYYY-MM-DD' AS DATE) → plain text literal (SQLite's CAST AS DATE makes a number).
select o_orderkey, cast(o_orderdate as varchar) as d
from orders
where o_orderdate >= '1995-03-15'
    and o_orderdate < '1995-03-18'
order by o_orderkey
