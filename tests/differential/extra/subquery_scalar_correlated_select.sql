-- Correlated scalar subqueries in SELECT (NULL when no row matches).
select
    c_custkey,
    (select count(*) from orders where o_custkey = c_custkey) as n,
    (select max(o_orderdate) from orders where o_custkey = c_custkey) as last_order
from customer
where c_custkey <= 30
order by c_custkey
