-- SQLite twin of substring_group.sql: SUBSTRING(s FROM a [FOR b]) → substr(s, a[, b]).
select substr(c_phone, 1, 2) as country, count(*) as n, sum(c_acctbal) as bal
from customer
where substr(c_phone, 1, 2) in ('10', '11', '12', '13', '14', '15', '20', '21', '22', '23', '30')
group by substr(c_phone, 1, 2)
order by country
