SELECT upper(s), lower(s), length(s), substring(s FROM 2 FOR 3), s LIKE 'a%', s NOT LIKE '%\_%' FROM t
