SET memory_limit = '1MB'; SELECT count(*) FROM t a, t b, t c, t d, t e
