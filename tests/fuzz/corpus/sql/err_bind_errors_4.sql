SELECT r_name, n_name
FROM region JOIN nation ON n_regionkey = r_regionkey
WHERE r_nme = 'ASIA'
