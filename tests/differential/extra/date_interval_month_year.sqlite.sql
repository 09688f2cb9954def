-- SQLite twin of date_interval_month_year.sql: DATE ± INTERVAL → date(d, '±N days|months|years'); DATE literals → text.
select l_shipmode, count(*) as n
from lineitem
where l_shipdate >= date('1996-01-01', '+2 months')
    and l_shipdate < date('1995-03-01', '+1 years', '+3 months')
    and l_receiptdate > date(l_shipdate, '+10 days')
group by l_shipmode
order by l_shipmode
