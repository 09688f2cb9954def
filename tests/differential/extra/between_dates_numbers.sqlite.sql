-- SQLite twin of between_dates_numbers.sql: DATE 'YYYY-MM-DD' literals → plain text literals (dates are TEXT in SQLite).
select l_shipmode, count(*) as n, sum(l_quantity) as qty
from lineitem
where l_shipdate between '1995-01-01' and '1995-03-31'
    and l_quantity between 10 and 20
    and l_extendedprice not between 1000 and 30000
group by l_shipmode
order by l_shipmode
