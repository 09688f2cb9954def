SELECT n_nationkey / (n_regionkey - n_regionkey) FROM nation
