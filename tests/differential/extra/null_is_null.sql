-- IS NULL / IS NOT NULL over LEFT JOIN results (customers without orders give NULLs).
select
    sum(case when o_orderkey is null then 1 else 0 end) as without_orders,
    sum(case when o_orderkey is not null then 1 else 0 end) as order_rows,
    count(*) as all_rows
from customer left join orders on c_custkey = o_custkey
