-- DECIMAL arithmetic with integers and decimals (exact in Hindsight, doubles in SQLite).
select
    l_orderkey,
    l_linenumber,
    l_extendedprice * (1 - l_discount) as disc_price,
    l_quantity * 2 + 1 as q,
    l_extendedprice - l_quantity as diff,
    l_tax * 100 as tax_pct
from lineitem
where l_orderkey < 100
order by l_orderkey, l_linenumber
