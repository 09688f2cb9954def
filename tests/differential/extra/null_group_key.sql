-- NULL as a GROUP BY key forms one group; ORDER BY with explicit NULLS FIRST.
select
    case when c_nationkey < 3 then null else c_nationkey / 5 end as bucket,
    count(*) as n
from customer
group by case when c_nationkey < 3 then null else c_nationkey / 5 end
order by bucket nulls first
