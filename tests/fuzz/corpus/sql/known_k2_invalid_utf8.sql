SELECT 'Á' FROM nation
