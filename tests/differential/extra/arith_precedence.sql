-- Operator precedence and parentheses, unary minus.
select
    n_nationkey,
    2 + n_nationkey * 3 - 4 / 2 as a,
    (2 + n_nationkey) * 3 as b,
    n_nationkey - n_regionkey - 1 as c,
    -(n_nationkey - 10) * 2 as d
from nation
order by n_nationkey
