SELECT n_name FROM nation WHERE n_nationkey = 1 ORDER BYY n_name
