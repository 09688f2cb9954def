-- Integer arithmetic; integer division truncates toward zero (standard SQL and SQLite),
-- also for negative operands.
select
    n_nationkey,
    n_nationkey + 3 as plus,
    n_nationkey - 30 as minus,
    n_nationkey * n_regionkey as times,
    n_nationkey / 4 as div,
    (n_nationkey - 30) / 4 as neg_div,
    -n_nationkey / 7 as neg_div2,
    n_nationkey / (n_regionkey + 1) as div_col
from nation
order by n_nationkey
