SELECT n_nationkey / 0 FROM nation
