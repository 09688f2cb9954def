#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/ (sql from the error tests plus hand-written statements, csv
snippets, catalogs; the differential tests' queries are read where they are, see tests/fuzz/sql.seeds). Re-run after changing it; the files are committed."""
import os, re, glob, hashlib
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = f"{root}/tests/fuzz/corpus/sql"
def put(d, name, text):
    with open(f"{d}/{name}", "w", encoding="utf-8") as f:
        f.write(text)
# statements of the error tests (one file per record), a sample
n = 0
for p in sorted(glob.glob(f"{root}/tests/sql/errors/*.test")):
    recs = open(p).read().split("\n\n")
    k = 0
    for r in recs:
        lines = [l for l in r.splitlines() if not l.startswith("#") and not l.startswith("-- at")]
        if not lines or not lines[0].startswith("statement"): continue
        sql = "\n".join(lines[1:]).split("\n----")[0].strip()
        if not sql: continue
        k += 1
        if k > 5: break
        put(out, f"err_{os.path.basename(p)[:-5]}_{k}.sql", sql + "\n")
own = {
 "t_types.sql": "SELECT b, i + g, d * 2.5, m / 3, upper(s), dt + INTERVAL '1' DAY FROM t WHERE s LIKE 'a%' OR b IS NULL",
 "t_set_workers.sql": "SET workers = 1; SELECT count(*), sum(m), min(dt), max(s) FROM t GROUP BY b HAVING count(*) > 0",
 "t_set_optimizer.sql": "SET optimizer = foundation; SET disabled_rules = 'push_down_filters,prune_columns'; SELECT * FROM t a FULL JOIN t b ON a.g = b.g",
 "t_cte_always.sql": "SET cte_materialization = always; WITH x AS (SELECT g, s FROM t) SELECT * FROM x a, x b WHERE a.g = b.g",
 "t_not_in.sql": "SELECT i FROM t WHERE i NOT IN (SELECT g FROM t WHERE g IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM t u WHERE u.s = t.s)",
 "t_case.sql": "SELECT CASE WHEN d > 0 THEN 'pos' WHEN d < 0 THEN 'neg' ELSE NULL END, coalesce(s, ''), nullif(i, 3), CAST(m AS DOUBLE) FROM t ORDER BY 1 NULLS FIRST, 2 DESC LIMIT 3 OFFSET 1",
 "t_scalar.sql": "SELECT s, (SELECT max(g) FROM t u WHERE u.i = t.i) FROM t WHERE dt BETWEEN DATE '1990-01-01' AND '1999-12-31'",
 "explain.sql": "EXPLAIN SELECT n_name, count(*) FROM nation JOIN region ON n_regionkey = r_regionkey GROUP BY n_name",
 "union.sql": "SELECT n_nationkey FROM nation UNION SELECT r_regionkey FROM region UNION ALL SELECT CAST(NULL AS BIGINT)",
 "quoted.sql": "SELECT \"n_name\" AS \"Name\", 'it''s' FROM nation -- comment\n/* block */ WHERE n_name <> 'x'",
 "numbers.sql": "SELECT 1e10, 0.5, -9223372036854775808, 123456789012345678901234567890, 1/0, 7 % 3, ABS(-2), ROUND(2.567, 1) FROM region",
 "many_joins.sql": "SELECT count(*) FROM lineitem, orders, customer, nation, region, supplier, part, partsupp WHERE l_orderkey = o_orderkey AND o_custkey = c_custkey AND c_nationkey = n_nationkey AND n_regionkey = r_regionkey AND s_nationkey = n_nationkey AND p_partkey = l_partkey AND ps_partkey = p_partkey AND ps_suppkey = s_suppkey",
 "empty.sql": ";;",
}
for k, v in own.items(): put(out, k, v + "\n")

out = f"{root}/tests/fuzz/corpus/exec"
os.makedirs(out, exist_ok=True)
execs = {
 "scan.sql": "SELECT * FROM t",
 "arith.sql": "SELECT i + g, i * 2, g - i, d / 2, m * m, i % 3, -i, abs(g), g / NULLIF(i, 0) FROM t",
 "overflow.sql": "SELECT g + 1, g * 2, i * i, abs(g), -g FROM t",
 "strings.sql": "SELECT upper(s), lower(s), length(s), substring(s FROM 2 FOR 3), s LIKE 'a%', s NOT LIKE '%\\_%' FROM t",
 "dates.sql": "SELECT dt + INTERVAL '1' MONTH, dt - INTERVAL '400' YEAR, EXTRACT(YEAR FROM dt), dt < '1996-01-01' FROM t",
 "cast.sql": "SELECT CAST(s AS INTEGER), CAST(d AS BIGINT), CAST(m AS DOUBLE), CAST(dt AS VARCHAR), CAST(i AS DECIMAL(5,1)) FROM t",
 "agg.sql": "SELECT b, count(*), count(DISTINCT s), sum(i), sum(g), avg(d), min(dt), max(s), sum(m) FROM t GROUP BY b HAVING count(*) > 0",
 "joins.sql": "SELECT * FROM t FULL JOIN r ON t.g = r.k LEFT JOIN t AS t2 ON t2.s = r.s RIGHT JOIN r AS r2 ON r2.k = t.i",
 "cross.sql": "SELECT count(*) FROM t, t AS a, t AS b, r",
 "subq.sql": "SELECT s FROM t WHERE i NOT IN (SELECT k FROM r) AND EXISTS (SELECT 1 FROM r WHERE r.s = t.s) AND g > (SELECT min(k) FROM r)",
 "scalar.sql": "SELECT s, (SELECT count(*) FROM r WHERE r.k = t.g) FROM t",
 "union.sql": "SELECT s FROM t UNION SELECT s FROM r UNION ALL SELECT CAST(NULL AS VARCHAR)",
 "order.sql": "SELECT * FROM t ORDER BY d DESC NULLS FIRST, s ASC NULLS LAST LIMIT 5 OFFSET 1",
 "cte.sql": "SET cte_materialization = always; WITH w AS (SELECT g, s FROM t) SELECT * FROM w a JOIN w b ON a.g = b.g",
 "settings.sql": "SET workers = 1; SET optimizer = foundation; SELECT b, sum(m) FROM t GROUP BY b; SET workers = 7; SELECT DISTINCT s FROM t",
 "explain.sql": "EXPLAIN ANALYZE SELECT r.s, count(*) FROM t JOIN r ON t.s = r.s GROUP BY r.s",
 "analyze.sql": "ANALYZE t; SELECT count(*) FROM t WHERE g BETWEEN 0 AND 30",
 "case.sql": "SELECT CASE WHEN b THEN i ELSE g END, CASE s WHEN 'abc' THEN 1 WHEN '' THEN 2 END, coalesce(i, g, 0), nullif(s, '') FROM t",
 "memory.sql": "SET memory_limit = '1MB'; SELECT count(*) FROM t a, t b, t c, t d, t e",
 "round.sql": "SELECT round(d, 2), round(m, 1), round(i, -1) FROM t",
}
for k, v in execs.items(): put(out, k, v + "\n")

out = f"{root}/tests/fuzz/corpus/csv"
hdr = "b,i,g,d,m,n,s,t,dt\n"
csvs = {
 "basic.csv": hdr + "true,1,10,1.5,2.1250,3.14,abc,x,1995-03-15\nfalse,-2,,,,0.00,,\"\",\n",
 "nulls.csv": hdr + ",0,,,,1.00,,y,\n,0,,,,1.00,,y,\n",
 "quoted.csv": hdr + "t,5,5,5,5,5,\"a,b\",\"he said \"\"hi\"\"\",2000-02-29\r\n1,6,6,6e-3,-0.0001,-999.99,\"multi\nline\",z,1970-01-01\r\n",
 "bom.csv": "\ufeff" + hdr + "0,1,2,3,4,5,s,t,2024-12-31\n\n\n",
 "extremes.csv": hdr + "FALSE,2147483647,9223372036854775807,1e308,99999999999999.9999,999.99,é漢字🎉,t,9999-12-31\nTRUE,-2147483648,-9223372036854775808,-4.9e-324,-99999999999999.9999,-999.99,\u00a0,t,0001-01-01\n",
 "header_only.csv": hdr,
 "upper_header.csv": hdr.upper() + "true,1,1,1,1,1,1,1,1999-01-01\n",
 "special_double.csv": hdr + ",1,,inf,,1,,t,\n,1,,-0.0,,1,,t,\n,1,,nan,,1,,t,\n,1,,+1.5E+2,,1,,t,\n",
 "bad_int.csv": hdr + "true,2147483648,1,1,1,1,1,1,1999-01-01\n",
 "bad_date.csv": hdr + "true,1,1,1,1,1,1,1,1999-02-30\n",
 "bad_decimal.csv": hdr + "true,1,1,1,1.00001,1,1,1,1999-01-01\n",
 "bad_quote.csv": hdr + "true,1,1,1,1,1,\"abc\"x,1,1999-01-01\n",
 "unterminated.csv": hdr + "true,1,1,1,1,1,\"abc,1,1999-01-01\n",
 "fields.csv": hdr + "true,1,1\n",
 "null_notnull.csv": hdr + "true,,1,1,1,1,1,1,1999-01-01\n",
 "bad_utf8.csv": hdr + "true,1,1,1,1,1,\xff\xfe,1,1999-01-01\n",
 "empty.csv": "",
 "no_newline.csv": hdr + "true,1,1,1,1,1,1,1,1999-01-01",
 "crlf_quoted.csv": hdr + "true,1,1,1,1,1,\"a\r\nb\",\"\",1999-01-01\r\n",
 "spaces.csv": hdr + " true , 1 ,1,1,1,1, s ,t,1999-01-01\n",
}
for k, v in csvs.items():
    with open(f"{out}/{k}", "wb") as f:
        f.write(v.encode("utf-8", "surrogateescape") if "\xff" not in v else v.encode("latin-1"))

out = f"{root}/tests/fuzz/corpus/catalog"
cats = {
 "tpch_like.json": '{"tables": [{"name": "orders", "file": "orders.csv", "columns": [{"name": "o_orderkey", "type": "BIGINT", "nullable": false}, {"name": "o_totalprice", "type": "DECIMAL(15,2)"}, {"name": "o_orderdate", "type": "DATE"}], "distribution": {"kind": "hash", "columns": ["o_orderkey"], "buckets": 8}}, {"name": "nation", "file": "nation.csv", "columns": [{"name": "n_name", "type": "VARCHAR"}], "distribution": {"kind": "replicated"}}]}',
 "all_types.json": '{"tables": [{"name": "t", "file": "t.csv", "columns": [{"name": "a", "type": "boolean"}, {"name": "b", "type": "int"}, {"name": "c", "type": "bigint"}, {"name": "d", "type": "double"}, {"name": "e", "type": "decimal(18,4)"}, {"name": "f", "type": "varchar(25)"}, {"name": "g", "type": "date"}]}]}',
 "random.json": '{"tables": [{"name": "r", "file": "r.csv", "columns": [{"name": "x", "type": "INTEGER"}], "distribution": {"kind": "random", "buckets": 4}}]}',
 "colocation.json": '{"tables": [{"name": "o", "file": "o.csv", "columns": [{"name": "k", "type": "BIGINT"}, {"name": "c", "type": "BIGINT"}], "distribution": {"kind": "hash", "columns": ["k"], "buckets": 4, "colocation": [{"mapping": "tenant", "columns": ["c"]}]}}]}',
 "sqlite_connector.json": '{"tables": [{"name": "s", "connector": "sqlite", "sqlite": {"file": "db.sqlite", "table": "src"}, "columns": [{"name": "x", "type": "BIGINT"}]}]}',
 "empty_tables.json": '{"tables": []}',
 "bad_json.json": '{"tables": [{"name": "t",',
 "bad_type.json": '{"tables": [{"name": "t", "file": "t.csv", "columns": [{"name": "a", "type": "TEXT"}]}]}',
 "bad_buckets.json": '{"tables": [{"name": "t", "file": "t.csv", "columns": [{"name": "a", "type": "BIGINT"}], "distribution": {"kind": "hash", "columns": ["a"], "buckets": 5000}}]}',
 "dup_column.json": '{"tables": [{"name": "t", "file": "t.csv", "columns": [{"name": "a", "type": "BIGINT"}, {"name": "A", "type": "BIGINT"}]}]}',
 "dup_table.json": '{"tables": [{"name": "t", "file": "t.csv", "columns": [{"name": "a", "type": "BIGINT"}]}, {"name": "T", "file": "u.csv", "columns": [{"name": "a", "type": "BIGINT"}]}]}',
 "missing_hash_col.json": '{"tables": [{"name": "t", "file": "t.csv", "columns": [{"name": "a", "type": "BIGINT"}], "distribution": {"kind": "hash", "columns": ["b"]}}]}',
 "unicode.json": '{"tables": [{"name": "t\\u00e9", "file": "t\\u00e9.csv", "columns": [{"name": "\\ud83c\\udf89", "type": "VARCHAR"}]}]}',
 "numbers.json": '{"tables": [{"name": "t", "file": "t.csv", "columns": [{"name": "a", "type": "BIGINT", "nullable": true}], "distribution": {"kind": "random", "buckets": 1.5e0}}]}',
 "comment_like.json": '// {"tables": []}\n',
 "nested.json": '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
}
for k, v in cats.items(): put(out, k, v + "\n")
for d in ("sql", "exec", "csv", "catalog"):
    print(d, len(os.listdir(f"{root}/tests/fuzz/corpus/{d}")))
