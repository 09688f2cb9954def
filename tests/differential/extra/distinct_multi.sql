-- DISTINCT on two columns, no ORDER BY (compared as a multiset).
select distinct l_returnflag, l_linestatus
from lineitem
