SELECT 'abc' + 1 FROM region
