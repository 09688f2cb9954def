-- IN and NOT IN lists of strings and integers.
select c_mktsegment, c_nationkey, count(*) as n
from customer
where c_mktsegment in ('BUILDING', 'MACHINERY')
    and c_nationkey not in (1, 2, 3, 4, 5, 20)
group by c_mktsegment, c_nationkey
order by c_mktsegment, c_nationkey
