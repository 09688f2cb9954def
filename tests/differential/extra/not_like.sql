-- NOT LIKE, combined with LIKE.
select p_container, count(*) as n
from part
where p_container not like 'SM%'
    and p_container not like '%BOX'
    and p_container like '%A%'
group by p_container
order by p_container
