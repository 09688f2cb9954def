-- FULL join under a filter on one side: a comparison on b rejects a's unmatched rows (RIGHT join
-- semantics), an IS NULL on a keeps b's unmatched rows.
select a.n_nationkey, a.n_name, b.r_regionkey, b.r_name
from (select n_nationkey, n_name from nation where n_nationkey < 8) a
    full outer join region b on a.n_nationkey = b.r_regionkey + 5
where b.r_regionkey >= 1 or a.n_nationkey is null
order by b.r_regionkey, a.n_nationkey
