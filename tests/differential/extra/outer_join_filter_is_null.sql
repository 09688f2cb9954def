-- IS NULL over the null-extended side keeps exactly the unmatched customers: the LEFT join must stay.
select c_custkey, o_orderkey
from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-03-01'
where o_orderkey is null and c_custkey <= 300
order by c_custkey
