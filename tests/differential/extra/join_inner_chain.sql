-- INNER JOIN ... ON chain over four tables.
select r_name, count(*) as orders, sum(o_totalprice) as total
from region
    inner join nation on n_regionkey = r_regionkey
    inner join customer on c_nationkey = n_nationkey
    join orders on o_custkey = c_custkey
group by r_name
order by r_name
