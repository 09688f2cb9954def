-- COUNT(*), COUNT(x), COUNT(DISTINCT x), SUM, AVG, MIN, MAX over numbers, dates and strings.
select
    l_shipmode,
    count(*) as n,
    count(l_comment) as n_comments,
    count(distinct l_suppkey) as suppliers,
    sum(l_quantity) as qty,
    avg(l_quantity) as avg_qty,
    min(l_extendedprice) as min_price,
    max(l_extendedprice) as max_price,
    min(l_shipdate) as first_ship,
    max(l_shipinstruct) as max_instruct
from lineitem
group by l_shipmode
order by l_shipmode
