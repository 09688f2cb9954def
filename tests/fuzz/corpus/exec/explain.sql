EXPLAIN ANALYZE SELECT r.s, count(*) FROM t JOIN r ON t.s = r.s GROUP BY r.s
