-- Nested derived tables with aggregates and a join between derived tables.
select t.c_nationkey, t.customers, u.suppliers
from (select c_nationkey, count(*) as customers from customer group by c_nationkey) t
    join (select s_nationkey, count(*) as suppliers
          from (select s_nationkey, s_suppkey from supplier where s_acctbal > 0) pos
          group by s_nationkey) u
        on t.c_nationkey = u.s_nationkey
order by t.c_nationkey
