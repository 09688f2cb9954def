-- Correlated scalar subquery in WHERE: parts priced above the middle of their brand's range.
select p_brand, count(*) as n
from part
where 2 * p_retailprice > (select max(p2.p_retailprice) + min(p2.p_retailprice)
                           from part p2 where p2.p_brand = part.p_brand)
group by p_brand
order by p_brand
