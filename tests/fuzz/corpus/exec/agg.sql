SELECT b, count(*), count(DISTINCT s), sum(i), sum(g), avg(d), min(dt), max(s), sum(m) FROM t GROUP BY b HAVING count(*) > 0
