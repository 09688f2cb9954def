-- DATE literal + INTERVAL month/year (first of month: no end-of-month ambiguity) in predicates.
select l_shipmode, count(*) as n
from lineitem
where l_shipdate >= date '1996-01-01' + interval '2' month
    and l_shipdate < date '1995-03-01' + interval '1' year + interval '3' month
    and l_receiptdate > l_shipdate + interval '10' day
group by l_shipmode
order by l_shipmode
