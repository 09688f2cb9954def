SELECT i + g, i * 2, g - i, d / 2, m * m, i % 3, -i, abs(g), g / NULLIF(i, 0) FROM t
