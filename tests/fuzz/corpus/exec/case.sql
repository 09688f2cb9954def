SELECT CASE WHEN b THEN i ELSE g END, CASE s WHEN 'abc' THEN 1 WHEN '' THEN 2 END, coalesce(i, g, 0), nullif(s, '') FROM t
