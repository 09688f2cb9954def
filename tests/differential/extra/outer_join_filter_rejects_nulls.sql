-- A WHERE comparison on the null-extended side rejects the customers without (early) orders: the
-- LEFT join is an inner join (simplify_outer_joins). Most customers have no order before 1992-03.
select c_custkey, o_orderkey, o_totalprice
from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-03-01'
where o_totalprice > 1000 and c_custkey <= 600
order by c_custkey, o_orderkey
