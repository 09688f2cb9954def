SELECT * FROM t FULL JOIN r ON t.g = r.k LEFT JOIN t AS t2 ON t2.s = r.s RIGHT JOIN r AS r2 ON r2.k = t.i
