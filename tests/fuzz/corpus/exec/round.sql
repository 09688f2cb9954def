SELECT round(d, 2), round(m, 1), round(i, -1) FROM t
