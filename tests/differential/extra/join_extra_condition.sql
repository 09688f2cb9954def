-- Equi-join plus a non-equi condition between both sides.
select p_brand, count(*) as n
from part join partsupp on p_partkey = ps_partkey and ps_supplycost * 2 > p_retailprice
group by p_brand
order by p_brand
