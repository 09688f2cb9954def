-- NULL join keys never match (neither in inner nor in outer joins).
select a.n_nationkey as a_key, b.n_nationkey as b_key
from nation a
    left join nation b on nullif(a.n_regionkey, 0) = nullif(b.n_regionkey, 0)
        and a.n_nationkey < b.n_nationkey
where a.n_nationkey < 10
order by a.n_nationkey, b.n_nationkey nulls first
