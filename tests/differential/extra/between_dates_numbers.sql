-- BETWEEN and NOT BETWEEN on DATEs, integers and decimals.
select l_shipmode, count(*) as n, sum(l_quantity) as qty
from lineitem
where l_shipdate between date '1995-01-01' and date '1995-03-31'
    and l_quantity between 10 and 20
    and l_extendedprice not between 1000 and 30000
group by l_shipmode
order by l_shipmode
