-- The % operator: the result takes the sign of the dividend.
select n_nationkey, n_nationkey % 7 as m, (n_nationkey - 12) % 5 as neg_m
from nation
order by n_nationkey
