SELECT s, (SELECT count(*) FROM r WHERE r.k = t.g) FROM t
