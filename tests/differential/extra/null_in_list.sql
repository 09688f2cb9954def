-- IN / NOT IN lists with a NULL element: IN is TRUE on a match, NOT IN is never TRUE.
select n_name, 'in' as which
from nation
where n_regionkey in (1, null)
union all
select n_name, 'not in' as which
from nation
where n_regionkey not in (1, null)
