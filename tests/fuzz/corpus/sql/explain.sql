EXPLAIN SELECT n_name, count(*) FROM nation JOIN region ON n_regionkey = r_regionkey GROUP BY n_name
