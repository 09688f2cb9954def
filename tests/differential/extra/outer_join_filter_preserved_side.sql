-- A filter on the preserved side only: unmatched customers stay, with NULL orders.
select c_custkey, o_orderkey
from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-03-01'
where c_acctbal > 8000 and c_custkey <= 600
order by c_custkey, o_orderkey
