SELECT l1.l_orderkey, max(l1.l_comment), max(l2.l_comment) FROM lineitem l1 JOIN lineitem l2 ON l1.l_orderkey = l2.l_orderkey GROUP BY l1.l_orderkey
