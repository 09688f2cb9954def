-- NOT IN (subquery) without NULLs in the subquery result.
select n_name
from nation
where n_regionkey not in (select r_regionkey from region where r_name like 'A%')
order by n_name
