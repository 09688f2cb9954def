-- LIKE with % and _ wildcards (case-sensitive).
select p_type, count(*) as n
from part
where p_type like '%BRASS'
   or p_name like 'b_u%'
   or p_container like 'SM _A%'
group by p_type
order by p_type
