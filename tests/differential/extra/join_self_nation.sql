-- Self-join: pairs of nations of the same region.
select a.n_name as first, b.n_name as second
from nation a join nation b on a.n_regionkey = b.n_regionkey and a.n_nationkey < b.n_nationkey
order by first, second
