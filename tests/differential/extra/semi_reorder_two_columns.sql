-- A semi join correlated on two columns of one table (partsupp's key).
select s_name, count(*) as n
from partsupp, part, supplier
where ps_partkey = p_partkey and ps_suppkey = s_suppkey and p_size < 20
  and exists (select 1 from lineitem where l_partkey = ps_partkey and l_suppkey = ps_suppkey and l_quantity > 49)
group by s_name
order by s_name
