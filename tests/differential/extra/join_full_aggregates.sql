-- FULL JOIN of two aggregates on a computed key.
select coalesce(o.y, l.y) as y, o.n as orders_placed, l.n as lines_received
from (select extract(year from o_orderdate) as y, count(*) as n from orders
      where o_orderdate < date '1994-01-01' group by extract(year from o_orderdate)) o
    full join (select extract(year from l_receiptdate) as y, count(*) as n from lineitem
               where l_receiptdate >= date '1993-01-01' group by extract(year from l_receiptdate)) l
        on o.y = l.y
order by y
