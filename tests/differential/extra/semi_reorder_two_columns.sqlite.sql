-- SQLite twin: the same semi join as a row-value IN (SQLite runs the correlated EXISTS as a nested loop).
select s_name, count(*) as n
from partsupp, part, supplier
where ps_partkey = p_partkey and ps_suppkey = s_suppkey and p_size < 20
  and (ps_partkey, ps_suppkey) in (select l_partkey, l_suppkey from lineitem where l_quantity > 49)
group by s_name
order by s_name
