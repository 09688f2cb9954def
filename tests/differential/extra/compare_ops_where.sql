-- Comparisons in WHERE on integers, decimals and strings.
select l_shipmode, count(*) as n
from lineitem
where l_quantity >= 10
    and l_quantity < 40
    and l_discount <> 0.05
    and l_tax <= 0.06
    and l_linenumber > 1
    and l_shipmode >= 'MAIL'
group by l_shipmode
order by l_shipmode
