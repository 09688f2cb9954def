SELECT n_name FROM nation GROUP n_name
