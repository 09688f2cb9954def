-- Self-join of a large table on its key with an inequality.
select l1.l_orderkey, count(*) as pairs, sum(l1.l_quantity + l2.l_quantity) as qty
from lineitem l1 join lineitem l2 on l1.l_orderkey = l2.l_orderkey and l1.l_linenumber < l2.l_linenumber
where l1.l_orderkey < 300
group by l1.l_orderkey
order by l1.l_orderkey
