-- SQLite twin of substring.sql: SUBSTRING(s FROM a [FOR b]) → substr(s, a[, b]).
select
    c_custkey,
    substr(c_phone, 1, 2) as country,
    substr(c_name, 10) as number_part,
    substr(c_mktsegment, 2, 3) as seg
from customer
where c_custkey <= 25
order by c_custkey
