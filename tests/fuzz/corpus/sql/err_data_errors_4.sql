SELECT sum(l_extendedprice) / sum(l_discount - l_discount) FROM lineitem
