SELECT sum(n_name) FROM nation
