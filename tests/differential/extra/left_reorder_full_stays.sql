-- A FULL join among inner joins never moves: rows of either side without a match keep NULLs.
select count(*) as n, count(n_nationkey) as nations, count(s_suppkey) as suppliers, sum(r_regionkey) as regions
from (select n_nationkey, n_regionkey from nation where n_nationkey < 20) n
    full join (select s_suppkey, s_nationkey from supplier where s_acctbal > 8000) s on s_nationkey = nullif(n_nationkey, 5)
    join region on r_regionkey = coalesce(n_regionkey, 0)
