-- EXTRACT(YEAR/MONTH/DAY) and GROUP BY expressions.
select
    extract(year from o_orderdate) as y,
    extract(month from o_orderdate) as m,
    count(*) as n,
    min(extract(day from o_orderdate)) as first_day,
    sum(o_totalprice) as total
from orders
group by extract(year from o_orderdate), extract(month from o_orderdate)
order by y, m
