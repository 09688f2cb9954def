-- GROUP BY ordinals.
select l_returnflag, l_linestatus, count(*) as n, sum(l_quantity) as qty
from lineitem
group by 1, 2
order by 1, 2
