-- The != spelling of <> (what users expect besides the standard <>).
select n_regionkey, count(*) as n
from nation
where n_regionkey != 2
group by n_regionkey
order by n_regionkey
