SELECT * FROM nations
