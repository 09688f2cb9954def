SET optimizer = foundation; SET disabled_rules = 'push_down_filters,prune_columns'; SELECT * FROM t a FULL JOIN t b ON a.g = b.g
