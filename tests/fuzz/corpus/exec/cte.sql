SET cte_materialization = always; WITH w AS (SELECT g, s FROM t) SELECT * FROM w a JOIN w b ON a.g = b.g
