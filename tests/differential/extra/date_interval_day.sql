-- DATE ± INTERVAL 'n' DAY on a column (the result is a DATE).
select
    o_orderkey,
    o_orderdate,
    o_orderdate + interval '30' day as due,
    o_orderdate - interval '1' day as day_before
from orders
where o_orderkey <= 40
order by o_orderkey
