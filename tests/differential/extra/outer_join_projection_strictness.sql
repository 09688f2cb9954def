-- Through a derived table: arithmetic on the null-extended side is strict (inner), a CASE is not.
select s.c_custkey, s.twice, s.z
from (
    select c_custkey, o_totalprice * 2 as twice,
           case when o_totalprice is null then 0 else 1 end as z
    from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-03-01'
    where c_custkey <= 500
) s
where s.z = 0 or s.twice > 300000
order by s.c_custkey, s.twice
