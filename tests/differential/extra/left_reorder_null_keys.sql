-- A LEFT join on a key that is NULL for some rows on both sides (nullif), among inner joins of its preserved side:
-- a NULL key never matches, its row is kept with NULLs wherever the LEFT join is applied.
select r_name, count(*) as n, count(s_suppkey) as with_supplier, sum(s_acctbal) as bal
from customer
    join nation on n_nationkey = c_nationkey
    join region on r_regionkey = n_regionkey
    left join supplier on nullif(s_nationkey, 3) = nullif(c_nationkey, 7) and s_acctbal > 9000
where c_acctbal > 5000
group by r_name
order by r_name
