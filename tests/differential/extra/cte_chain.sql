-- Two CTEs, the second built on the first, the first used again in a scalar subquery.
with per_customer as (
    select o_custkey, count(*) as n, sum(o_totalprice) as total
    from orders
    group by o_custkey
),
busy as (
    select o_custkey, n from per_customer where n >= 10
)
select b.n, count(*) as customers, (select max(n) from per_customer) as max_n
from busy b
group by b.n
order by b.n
