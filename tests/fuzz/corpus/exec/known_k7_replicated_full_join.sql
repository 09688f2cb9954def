SELECT count(*) FROM r FULL JOIN t ON r.k = t.g
