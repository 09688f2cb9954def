-- SQLite twin of date_interval_day.sql: DATE ± INTERVAL → date(d, '±N days|months|years'); DATE literals → text.
select
    o_orderkey,
    o_orderdate,
    date(o_orderdate, '+30 days') as due,
    date(o_orderdate, '-1 days') as day_before
from orders
where o_orderkey <= 40
order by o_orderkey
