SET workers = 1; SET optimizer = foundation; SELECT b, sum(m) FROM t GROUP BY b; SET workers = 7; SELECT DISTINCT s FROM t
