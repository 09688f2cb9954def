SELEC n_name FROM nation
