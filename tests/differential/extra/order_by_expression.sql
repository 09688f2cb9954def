-- ORDER BY an expression that is not in the select list.
select n_name, n_nationkey
from nation
order by n_regionkey * 100 - n_nationkey
