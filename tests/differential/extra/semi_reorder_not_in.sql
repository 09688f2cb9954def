-- NOT IN (null-aware anti join) over a three-table join: it filters part rows by the whole right side.
select s_name, count(*) as n
from part, partsupp, supplier
where p_partkey = ps_partkey and ps_suppkey = s_suppkey
  and p_size not in (select n_nationkey from nation, region where n_regionkey = r_regionkey and r_name = 'EUROPE')
group by s_name
order by s_name
