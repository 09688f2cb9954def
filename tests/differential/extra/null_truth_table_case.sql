-- Three-valued logic read through CASE: T, F or U (unknown) for each combination.
select
    n_nationkey,
    case when (nullif(n_regionkey, 0) > 2) and (nullif(n_nationkey % 3, 0) = 1) then 'T'
         when not ((nullif(n_regionkey, 0) > 2) and (nullif(n_nationkey % 3, 0) = 1)) then 'F'
         else 'U' end as and_tv,
    case when (nullif(n_regionkey, 0) > 2) or (nullif(n_nationkey % 3, 0) = 1) then 'T'
         when not ((nullif(n_regionkey, 0) > 2) or (nullif(n_nationkey % 3, 0) = 1)) then 'F'
         else 'U' end as or_tv
from nation
order by n_nationkey
