SELECT count(*) FROM t, t AS a, t AS b, r
