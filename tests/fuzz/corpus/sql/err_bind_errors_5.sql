SELECT nation.n_nme FROM nation
