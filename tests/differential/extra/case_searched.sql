-- Searched CASE as a grouping key, GROUP BY and ORDER BY ordinal.
select
    case when o_totalprice < 50000 then 'small'
         when o_totalprice < 200000 then 'medium'
         else 'large' end as size,
    count(*) as n,
    sum(o_totalprice) as total
from orders
group by 1
order by 1
