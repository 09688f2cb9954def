SELECT "n_name" AS "Name", 'it''s' FROM nation -- comment
/* block */ WHERE n_name <> 'x'
