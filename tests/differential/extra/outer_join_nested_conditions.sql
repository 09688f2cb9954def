-- The outer LEFT join's condition rejects the nested join's null-extended rows (the nested join is
-- inner), while nations without a match keep their NULLs; a projected CASE above is not strict.
select n_nationkey, t.k, t.flag
from nation left join (
    select c_custkey as k, case when o_orderkey is null then 'none' else 'some' end as flag
    from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-02-01'
    where c_custkey <= 30
) t on n_nationkey = t.k and t.flag = 'none'
order by n_nationkey, t.k
