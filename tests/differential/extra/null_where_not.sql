-- WHERE keeps only TRUE: NOT (NULL > 2) is NULL, so the NULL rows are dropped by both.
select n_name
from nation
where not (nullif(n_regionkey, 0) > 2)
   or nullif(n_regionkey, 0) > 3
order by n_name
