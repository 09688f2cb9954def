-- SUBSTRING as a GROUP BY key and in WHERE.
select substring(c_phone from 1 for 2) as country, count(*) as n, sum(c_acctbal) as bal
from customer
where substring(c_phone from 1 for 2) in ('10', '11', '12', '13', '14', '15', '20', '21', '22', '23', '30')
group by substring(c_phone from 1 for 2)
order by country
