-- A semi and an anti join over one join tree, each reading another table of it.
select n_name, count(*) as n, sum(c_acctbal) as bal
from customer, nation, region
where c_nationkey = n_nationkey and n_regionkey = r_regionkey
  and exists (select 1 from orders where o_custkey = c_custkey and o_totalprice > 200000)
  and not exists (select 1 from supplier where s_nationkey = n_nationkey and s_acctbal < -900)
group by n_name
order by n_name
