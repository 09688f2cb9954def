-- TPC-H Q18, Large Volume Customer Query. Validation parameters: QUANTITY = 300 (few or no rows
-- at small scale factors).
-- Tie-breaker added: the spec orders by o_totalprice desc, o_orderdate under LIMIT 100, which is not
-- total; o_orderkey (which identifies a group) is appended.
select
    c_name,
    c_custkey,
    o_orderkey,
    o_orderdate,
    o_totalprice,
    sum(l_quantity)
from
    customer,
    orders,
    lineitem
where
    o_orderkey in (
        select
            l_orderkey
        from
            lineitem
        group by
            l_orderkey
        having
            sum(l_quantity) > 300
    )
    and c_custkey = o_custkey
    and o_orderkey = l_orderkey
group by
    c_name,
    c_custkey,
    o_orderkey,
    o_orderdate,
    o_totalprice
order by
    o_totalprice desc,
    o_orderdate,
    o_orderkey
limit 100
