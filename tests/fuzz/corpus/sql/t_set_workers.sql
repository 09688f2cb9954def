SET workers = 1; SELECT count(*), sum(m), min(dt), max(s) FROM t GROUP BY b HAVING count(*) > 0
