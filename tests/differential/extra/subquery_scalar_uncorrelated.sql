-- Scalar subqueries, not correlated, in SELECT and in WHERE.
select
    o_orderkey,
    o_totalprice,
    o_totalprice * 2 - (select max(o_totalprice) from orders) as gap,
    (select count(*) from region) as regions
from orders
where o_totalprice > (select max(o_totalprice) * 0.8 from orders)
order by o_orderkey
