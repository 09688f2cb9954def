SELECT count(*) FROM orders WHERE o_orderdate = 19950101
