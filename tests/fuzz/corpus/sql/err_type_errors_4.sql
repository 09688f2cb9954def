SELECT avg(o_orderdate) FROM orders
