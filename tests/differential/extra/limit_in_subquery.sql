-- LIMIT inside a derived table (top 5 orders), aggregated outside.
select count(*) as n, sum(o_totalprice) as total, min(o_totalprice) as smallest
from (select o_totalprice from orders order by o_totalprice desc, o_orderkey limit 5) top5
