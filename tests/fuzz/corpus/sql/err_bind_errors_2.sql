SELECT n_name
FROM nation
JOIN regio ON n_regionkey = r_regionkey
