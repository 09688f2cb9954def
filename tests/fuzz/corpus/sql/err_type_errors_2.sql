SELECT n_name + 1 FROM nation
