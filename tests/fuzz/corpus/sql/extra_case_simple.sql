-- Simple CASE; no ELSE gives NULL.
select
    n_name,
    case n_regionkey when 0 then 'AF' when 1 then 'AM' when 2 then 'AS' end as code,
    case n_regionkey when 3 then n_nationkey * 10 else -1 end as num
from nation
order by n_name
