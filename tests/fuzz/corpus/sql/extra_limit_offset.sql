-- ORDER BY ordinals with LIMIT and OFFSET (the order is total).
select o_orderkey, o_totalprice
from orders
order by 2 desc, 1
limit 10 offset 5
