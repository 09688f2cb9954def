-- TPC-H Q13, Customer Distribution Query. Validation parameters: WORD1 = special, WORD2 = requests.
-- ORDER BY is total: c_count is the grouping key. The derived table names its count column inside
-- (count(o_orderkey) as c_count) instead of the spec's column list "as c_orders (c_custkey, c_count)";
-- same query.
select
    c_count,
    count(*) as custdist
from
    (
        select
            c_custkey,
            count(o_orderkey) as c_count
        from
            customer left outer join orders on
                c_custkey = o_custkey
                and o_comment not like '%special%requests%'
        group by
            c_custkey
    ) as c_orders
group by
    c_count
order by
    custdist desc,
    c_count desc
