-- NOT IN over a subquery result that contains a NULL is never TRUE: no rows.
-- The subquery yields {3, NULL}.
select n_name
from nation
where n_regionkey not in (select nullif(r_regionkey, 4) from region where r_regionkey >= 3)
