-- Q18's shape: a selective IN (... HAVING) semi join the join order applies to orders before the join with lineitem.
select c_name, o_orderkey, o_totalprice, sum(l_quantity) as qty
from customer, orders, lineitem
where o_orderkey in (select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > 250)
  and c_custkey = o_custkey and o_orderkey = l_orderkey
group by c_name, o_orderkey, o_totalprice
order by o_totalprice desc, o_orderkey
