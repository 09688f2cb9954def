-- Three-valued AND / OR / NOT as BOOLEAN outputs: NULLIF(n_regionkey, 0) is NULL for
-- the African nations.
select
    n_nationkey,
    nullif(n_regionkey, 0) > 2 as gt,
    (nullif(n_regionkey, 0) > 2) and n_nationkey < 10 as and_result,
    (nullif(n_regionkey, 0) > 2) or n_nationkey < 10 as or_result,
    not (nullif(n_regionkey, 0) > 2) as not_result
from nation
order by n_nationkey
