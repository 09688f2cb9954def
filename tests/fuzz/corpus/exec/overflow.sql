SELECT g + 1, g * 2, i * i, abs(g), -g FROM t
