-- SQLite twin of extract_parts.sql: EXTRACT(part FROM d) → CAST(strftime('%Y|%m|%d', d) AS INTEGER); DATE literals → text.
select
    cast(strftime('%Y', o_orderdate) as integer) as y,
    cast(strftime('%m', o_orderdate) as integer) as m,
    count(*) as n,
    min(cast(strftime('%d', o_orderdate) as integer)) as first_day,
    sum(o_totalprice) as total
from orders
group by cast(strftime('%Y', o_orderdate) as integer), cast(strftime('%m', o_orderdate) as integer)
order by y, m
