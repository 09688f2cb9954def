SELECT n_name
FROM nation
WHERE n_nationkey = 1 ADN n_regionkey = 2
