-- SUM/MIN/MAX/AVG of a group whose values are all NULL are NULL; COUNT(x) is 0.
select
    n_regionkey,
    count(*) as n,
    count(nullif(n_regionkey, 0)) as non_null,
    sum(nullif(n_regionkey, 0)) as s,
    min(nullif(n_regionkey, 0)) as mn,
    max(nullif(n_regionkey, 0)) as mx
from nation
group by n_regionkey
order by n_regionkey
