SELECT n_nme FROM nation
