-- CROSS JOIN (125 rows) with ORDER BY on both sides.
select n_name, r_name
from nation cross join region
order by n_name, r_name
