-- Both OR branches compare null-extended columns: rejected, the LEFT join is inner.
select c_custkey, o_orderkey
from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-06-01'
where (o_totalprice > 150000 or o_shippriority = 0) and c_custkey <= 400
order by c_custkey, o_orderkey
