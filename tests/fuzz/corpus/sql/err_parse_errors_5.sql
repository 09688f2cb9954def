SELECT n_name, FROM nation
