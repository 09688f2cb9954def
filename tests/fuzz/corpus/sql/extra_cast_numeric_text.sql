-- CAST between integers, VARCHAR, DOUBLE, DECIMAL and BIGINT.
select
    n_nationkey,
    cast(n_nationkey as varchar) as as_text,
    cast(n_nationkey as double) / 2 as as_double,
    cast('42' as integer) + n_nationkey as from_text,
    cast(n_regionkey as decimal(10, 2)) as as_decimal,
    cast(n_nationkey as bigint) * 1000000000 as big,
    cast(l.l_quantity as integer) as qty
from nation
    join (select l_quantity, l_linenumber from lineitem where l_orderkey = 1) l
        on l.l_linenumber = n_nationkey
order by n_nationkey
