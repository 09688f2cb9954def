-- UNION ALL keeps duplicates (compared as a multiset).
select c_nationkey as k, 'customer' as src from customer where c_custkey <= 10
union all
select s_nationkey, 'supplier' from supplier where s_suppkey <= 10
union all
select c_nationkey, 'customer' from customer where c_custkey <= 5
