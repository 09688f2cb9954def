-- NOT EXISTS over a three-table join: the anti join may go down to customer, the table it reads.
select n_name, count(*) as n
from customer, nation, region
where c_nationkey = n_nationkey and n_regionkey = r_regionkey
  and not exists (select 1 from orders where o_custkey = c_custkey and o_orderstatus = 'F')
group by n_name
order by n_name
