-- UNION removes duplicates across and within branches; ORDER BY the output name.
select n_name as name from nation where n_regionkey = 1
union
select r_name from region
union
select n_name from nation where n_nationkey < 3
order by name
