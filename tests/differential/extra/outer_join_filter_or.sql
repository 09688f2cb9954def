-- An OR with a branch on the preserved side only does not reject the null-extended rows (stays LEFT);
-- the second query's OR rejects them in both branches (inner).
select c_custkey, o_orderkey, c_acctbal
from customer left join orders on c_custkey = o_custkey and o_orderdate < '1992-03-01'
where (o_totalprice > 150000 or c_acctbal < 0) and c_custkey <= 400
order by c_custkey, o_orderkey
