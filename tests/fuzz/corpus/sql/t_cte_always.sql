SET cte_materialization = always; WITH x AS (SELECT g, s FROM t) SELECT * FROM x a, x b WHERE a.g = b.g
