-- Every comparison operator, counted with searched CASE inside SUM.
select
    sum(case when p_size = 25 then 1 else 0 end) as eq,
    sum(case when p_size <> 25 then 1 else 0 end) as ne,
    sum(case when p_size < 25 then 1 else 0 end) as lt,
    sum(case when p_size <= 25 then 1 else 0 end) as le,
    sum(case when p_size > 25 then 1 else 0 end) as gt,
    sum(case when p_size >= 25 then 1 else 0 end) as ge
from part
