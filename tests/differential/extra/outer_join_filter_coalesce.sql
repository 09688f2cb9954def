-- COALESCE turns the NULLs of unmatched customers into 0, which passes the filter: stays LEFT.
select c_custkey, coalesce(o_totalprice, 0) as price
from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-03-01'
where coalesce(o_totalprice, 0) < 100000 and c_custkey <= 300
order by c_custkey, price
