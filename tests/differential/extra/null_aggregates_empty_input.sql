-- Aggregates over no rows: COUNT is 0, the others are NULL; one row is returned.
select
    count(*) as n,
    count(l_orderkey) as n_keys,
    sum(l_quantity) as total,
    min(l_shipdate) as first,
    max(l_comment) as last_comment,
    avg(l_discount) as avg_disc
from lineitem
where l_quantity > 1000
