-- NULL propagates through arithmetic; NULLIF produces it (NULL for region 1, never zero).
select
    n_nationkey,
    nullif(n_regionkey, 1) + 10 as plus,
    nullif(n_regionkey, 1) * n_nationkey as times,
    n_nationkey / nullif(n_regionkey + 1, 2) as div
from nation
order by n_nationkey
