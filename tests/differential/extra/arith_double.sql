-- DOUBLE arithmetic after CAST, including division (no truncation for doubles).
select
    p_size,
    cast(p_size as double) / 3 as third,
    cast(p_size as double) * 1.5 + 0.25 as scaled,
    count(*) as n
from part
where p_size <= 10
group by p_size
order by p_size
