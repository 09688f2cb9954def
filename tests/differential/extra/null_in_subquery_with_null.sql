-- IN over a subquery result containing a NULL is TRUE for the matches (and NULL otherwise).
select n_name
from nation
where n_regionkey in (select nullif(r_regionkey, 4) from region where r_regionkey >= 3)
order by n_name
