SELECT b, i + g, d * 2.5, m / 3, upper(s), dt + INTERVAL '1' DAY FROM t WHERE s LIKE 'a%' OR b IS NULL
