-- FULL OUTER JOIN: unmatched rows of both sides come back with NULLs.
select a.n_nationkey, a.n_name, b.r_regionkey, b.r_name
from (select n_nationkey, n_name from nation where n_nationkey < 8) a
    full outer join region b on a.n_nationkey = b.r_regionkey + 5
