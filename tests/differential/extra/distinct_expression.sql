-- DISTINCT over an expression, ORDER BY alias DESC.
select distinct n_regionkey * 10 + 1 as r
from nation
order by r desc
