-- SQLite twin of join_full_aggregates.sql: EXTRACT(part FROM d) → CAST(strftime('%Y|%m|%d', d) AS INTEGER); DATE literals → text.
select coalesce(o.y, l.y) as y, o.n as orders_placed, l.n as lines_received
from (select cast(strftime('%Y', o_orderdate) as integer) as y, count(*) as n from orders
      where o_orderdate < '1994-01-01' group by cast(strftime('%Y', o_orderdate) as integer)) o
    full join (select cast(strftime('%Y', l_receiptdate) as integer) as y, count(*) as n from lineitem
               where l_receiptdate >= '1993-01-01' group by cast(strftime('%Y', l_receiptdate) as integer)) l
        on o.y = l.y
order by y
