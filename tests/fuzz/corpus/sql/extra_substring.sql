-- SUBSTRING(s FROM a FOR b) and SUBSTRING(s FROM a).
select
    c_custkey,
    substring(c_phone from 1 for 2) as country,
    substring(c_name from 10) as number_part,
    substring(c_mktsegment from 2 for 3) as seg
from customer
where c_custkey <= 25
order by c_custkey
