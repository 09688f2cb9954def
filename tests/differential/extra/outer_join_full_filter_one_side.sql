-- FULL join, the filter compares a's column: b's unmatched rows go, a's stay (LEFT semantics).
select a.n_nationkey, b.r_regionkey
from (select n_nationkey from nation where n_nationkey < 12) a
    full outer join (select r_regionkey from region where r_regionkey > 0) b on a.n_nationkey = b.r_regionkey + 5
where a.n_nationkey > 2
order by a.n_nationkey, b.r_regionkey
