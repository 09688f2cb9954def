"""Random queries over the dataset of random_data.py that Hindsight and SQLite must answer alike.

Only what both engines agree on is generated: integer division and modulo by non-zero constants (both
truncate), no division otherwise, dates compared with 'YYYY-MM-DD' strings, ASCII strings, LIKE without
escapes (SQLite runs with case_sensitive_like), no ORDER BY/LIMIT (results compare as multisets), comma joins
only after the joins whose ON they could change (SQLite gives a comma the precedence of JOIN).

A query is a Query (select core) or a Union of two; render() gives its SQL. Both keep their parts as lists of
SQL snippets so that the minimizer can drop parts and render again.
"""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass, field
from typing import Optional

from random_data import DATES, STRINGS, TABLES

TABLE_ROWS = {name: rows for name, rows, _, _ in TABLES}
TABLE_ROWS["(derived)"] = 100
# The hash columns of each table: joins and IN subqueries on them take the co-located plans, so they are
# picked more often than the other columns.
DIST_COLUMNS = {name: dist.get("columns", []) for name, _, dist, _ in TABLES}
# Column kinds: int (a, b, and the key k), dec, dbl, str, date, bool.
KIND_COLUMNS = {"int": ["a", "b", "k"], "dec": ["m"], "dbl": ["d"], "str": ["s"], "date": ["dt"], "bool": ["f"]}
NUMERIC = ("int", "dec", "dbl")
VALUE_KINDS = ("int", "int", "int", "dec", "dbl", "str", "str", "date", "bool")
LIKE_PATTERNS = ["a%", "%b", "_", "%", "a_c", "x%y", "", "A%", "%a%", "__", "_b%"]
TABLE_WEIGHTS = [("t1", 5), ("t2", 5), ("t3", 4), ("t4", 4), ("t5", 2), ("t6", 2), ("r", 2), ("e", 1)]
CMP_OPS = ["=", "<>", "<", "<=", ">", ">="]
COLUMN_REF = re.compile(r"\b[xyd]\d+\.[a-z]")  # alias.column (aliases are x1, y2, d3...)


@dataclass
class FromStep:
    """One FROM item: the first table, or a join onto what precedes it. A derived table (`sub`, its SQL) is
    written inline, or as a WITH entry named `cte` when that is set."""
    table: str
    alias: str
    join: str = ""           # "" (first), INNER, LEFT, RIGHT, FULL, CROSS, COMMA
    on: list[str] = field(default_factory=list)  # AND-ed ON terms
    sub: str = ""
    cte: str = ""

    def sql(self) -> str:
        source = self.cte or (f"({self.sub})" if self.sub else self.table)
        item = f"{source} AS {self.alias}"
        if not self.join:
            return item
        if self.join == "COMMA":
            return ", " + item
        if self.join == "CROSS":
            return f" CROSS JOIN {item}"
        return f" {self.join} JOIN {item} ON " + " AND ".join(self.on or ["TRUE"])


@dataclass
class Query:
    items: list[tuple[str, str]]               # (expression, kind)
    steps: list[FromStep]
    where: list[str] = field(default_factory=list)
    group_by: list[str] = field(default_factory=list)
    having: list[str] = field(default_factory=list)
    distinct: bool = False
    aggregate: bool = False                    # has aggregates (with or without GROUP BY)
    # For the aggregate TLP variant: each item is one of count/sum/min/max over the FROM (no GROUP BY).
    tlp_aggregates: list[str] = field(default_factory=list)
    predicate_scope: list[str] = field(default_factory=list)  # aliases a TLP predicate may use
    order_by: list[tuple[int, str]] = field(default_factory=list)  # (item index, "ASC NULLS FIRST"...)
    keys: list[tuple[str, str]] = field(default_factory=list)      # GROUP BY (expression, kind), for TLP
    limit: str = ""                                                 # "LIMIT n [OFFSET m]"

    def cte_defs(self) -> list[str]:
        return [f"{s.cte} AS ({s.sub})" for s in self.steps if s.cte]

    def render(self, extra_where: Optional[str] = None, with_ctes: bool = True,
               extra_having: Optional[str] = None) -> str:
        sel = ", ".join(f"{e} AS c{i}" for i, (e, _) in enumerate(self.items))
        sql = (with_clause(self.cte_defs()) if with_ctes else "") + "SELECT " + ("DISTINCT " if self.distinct else "") + sel + " FROM " + "".join(s.sql() for s in self.steps)
        where = list(self.where) + ([extra_where] if extra_where else [])
        if where:
            sql += " WHERE " + " AND ".join(where)
        if self.group_by:
            sql += " GROUP BY " + ", ".join(self.group_by)
        having = list(self.having) + ([extra_having] if extra_having else [])
        if having:
            sql += " HAVING " + " AND ".join(having)
        if self.order_by:
            sql += " ORDER BY " + ", ".join(f"{i + 1} {d}" for i, d in self.order_by)
        if self.limit:
            sql += " " + self.limit
        return sql

    def kinds(self) -> list[str]:
        return [k for _, k in self.items]


@dataclass
class Union:
    left: Query
    right: Query
    all: bool

    def render(self, extra_where: Optional[str] = None) -> str:
        return (with_clause(self.left.cte_defs() + self.right.cte_defs()) + self.left.render(with_ctes=False) +
                (" UNION ALL " if self.all else " UNION ") + self.right.render(with_ctes=False))


def with_clause(defs: list[str]) -> str:
    """WITH for the CTEs of a statement (they are hoisted to its top: Hindsight takes WITH only there)."""
    return "WITH " + ", ".join(defs) + " " if defs else ""


class Generator:
    def __init__(self, rng: random.Random, full_joins: bool = True):
        self.rng = rng
        self.full_joins = full_joins
        self.alias_counter = 0
        self.alias_table: dict[str, str] = {}
        self.alias_cols: dict[str, dict[str, list[str]]] = {}
        self.nesting = 0  # derived tables inside derived tables are not generated
        # SQLite computes DECIMAL in doubles: 12.34 + 5 is not 17.34 there. Where values are compared for
        # equality (predicates, group keys, DISTINCT, UNION) only DECIMAL operations exact in binary are used.
        self.exact = False

    # ----------------------------------------------------------------------------------------- helpers
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def new_alias(self, prefix: str, table: str, columns: Optional[dict[str, list[str]]] = None) -> str:
        self.alias_counter += 1
        alias = f"{prefix}{self.alias_counter}"
        self.alias_table[alias] = table
        self.alias_cols[alias] = columns if columns is not None else KIND_COLUMNS
        return alias

    def cols_of(self, alias: str, kind: str) -> list[str]:
        return self.alias_cols[alias].get(kind, [])

    def key_col(self, alias: str, kind: str) -> str:
        """A column of `kind` of alias, its table's hash column when that has the kind and a coin says so."""
        cols = self.cols_of(alias, kind)
        if not cols:
            return self.literal(kind)
        keys = [c for c in DIST_COLUMNS.get(self.alias_table[alias], []) if c in cols]
        if keys and self.chance(0.6):
            return f"{alias}.{self.pick(keys)}"
        return f"{alias}.{self.pick(cols)}"

    def table(self) -> str:
        names = [n for n, _ in TABLE_WEIGHTS]
        return self.rng.choices(names, weights=[w for _, w in TABLE_WEIGHTS])[0]

    def col(self, scope: list[str], kind: str) -> str:
        having = [a for a in scope if self.cols_of(a, kind)]
        if not having:
            return self.literal(kind)
        a = self.pick(having)
        return f"{a}.{self.pick(self.cols_of(a, kind))}"

    def literal(self, kind: str) -> str:
        if kind == "int":
            return str(self.rng.randint(-3, 10))
        if kind == "dec":
            return f"{self.rng.randint(-500, 3000) / 100:.2f}"
        if kind == "dbl":
            return f"CAST({self.rng.randint(-20, 20) / 4} AS DOUBLE)"
        if kind == "str":
            return "'" + self.pick(STRINGS) + "'"
        if kind == "date":
            return "'" + self.pick(DATES) + "'"
        if kind == "bool":
            return self.pick(["TRUE", "FALSE"])
        raise ValueError(kind)

    # ----------------------------------------------------------------------------------------- expressions
    def expr(self, scope: list[str], kind: str, depth: int = 2) -> str:
        if kind == "bool":
            return self.pred(scope, depth)
        r = self.rng.random()
        if depth <= 0 or r < 0.45:
            return self.col(scope, kind) if self.chance(0.85) else self.literal(kind)
        d = depth - 1
        if kind == "int":
            c = self.pick(["arith", "arith", "div", "abs", "neg", "coalesce", "nullif", "case", "case_simple",
                           "length"])
            if c == "arith":
                return f"({self.expr(scope, 'int', d)} {self.pick(['+', '-', '*'])} {self.expr(scope, 'int', d)})"
            if c == "div":
                return f"({self.expr(scope, 'int', d)} {self.pick(['/', '%'])} {self.pick(['2', '3', '-4', '7'])})"
            if c == "abs":
                return f"abs({self.expr(scope, 'int', d)})"
            if c == "neg":
                return f"(- {self.expr(scope, 'int', d)})"
            if c == "length":
                return f"length({self.expr(scope, 'str', d)})"
        elif kind == "dec":
            c = self.pick(["times", "coalesce", "nullif", "case", "abs"] if self.exact else
                          ["plus_int", "times", "minus", "coalesce", "nullif", "case", "abs"])
            if c == "plus_int":
                return f"({self.expr(scope, 'dec', d)} + {self.expr(scope, 'int', d)})"
            if c == "times":
                return f"({self.expr(scope, 'dec', d)} * {self.pick(['2', '-1'] if self.exact else ['2', '3', '-1'])})"
            if c == "minus":
                return f"({self.expr(scope, 'dec', d)} - {self.expr(scope, 'dec', d)})"
            if c == "abs":
                return f"abs({self.expr(scope, 'dec', d)})"
        elif kind == "dbl":
            c = self.pick(["plus", "times", "coalesce", "case", "abs"])
            if c == "plus":
                return f"({self.expr(scope, 'dbl', d)} {self.pick(['+', '-'])} {self.expr(scope, 'dbl', d)})"
            if c == "times":
                return f"({self.expr(scope, 'dbl', d)} * {self.pick(['2', '-3', '0.5'])})"
            if c == "abs":
                return f"abs({self.expr(scope, 'dbl', d)})"
        elif kind == "str":
            c = self.pick(["upper", "lower", "coalesce", "nullif", "case"])
            if c in ("upper", "lower"):
                return f"{c}({self.expr(scope, 'str', d)})"
        elif kind == "date":
            c = "case" if self.chance(0.3) else "col"
            if c == "col":
                return self.col(scope, "date")
        if c == "coalesce":
            return f"coalesce({self.expr(scope, kind, d)}, {self.expr(scope, kind, d)})"
        if c == "nullif":
            return f"nullif({self.expr(scope, kind, d)}, {self.literal(kind)})"
        if c == "case_simple":
            return (f"CASE {self.expr(scope, 'int', d)} WHEN {self.literal('int')} THEN {self.expr(scope, kind, d)} "
                    f"WHEN {self.literal('int')} THEN {self.expr(scope, kind, d)} ELSE {self.expr(scope, kind, d)} END")
        # case
        if self.chance(0.3):
            return f"CASE WHEN {self.pred(scope, d)} THEN {self.expr(scope, kind, d)} END"
        return (f"CASE WHEN {self.pred(scope, d)} THEN {self.expr(scope, kind, d)} "
                f"ELSE {self.expr(scope, kind, d)} END")

    def pred(self, scope: list[str], depth: int = 2) -> str:
        saved, self.exact = self.exact, True
        try:
            return self._pred(scope, depth)
        finally:
            self.exact = saved

    def _pred(self, scope: list[str], depth: int) -> str:
        r = self.rng.random()
        d = depth - 1
        if depth > 0 and r < 0.25:
            c = self.pick(["and", "or", "not", "isnull"])
            if c == "and":
                return f"({self.pred(scope, d)} AND {self.pred(scope, d)})"
            if c == "or":
                return f"({self.pred(scope, d)} OR {self.pred(scope, d)})"
            if c == "not":
                return f"(NOT {self.pred(scope, d)})"
            return f"(({self.pred(scope, d)}) IS {self.pick(['', 'NOT '])}NULL)"
        c = self.pick(["cmp", "cmp", "cmp", "isnull", "between", "in", "like", "bool", "cmp_str", "cmp_date"])
        if c == "cmp":
            k1, k2 = self.pick(NUMERIC), self.pick(NUMERIC)
            rhs = self.expr(scope, k2, d) if self.chance(0.6) else self.literal(k2)
            return f"{self.expr(scope, k1, d)} {self.pick(CMP_OPS)} {rhs}"
        if c == "cmp_str":
            rhs = self.expr(scope, "str", d) if self.chance(0.5) else self.literal("str")
            return f"{self.expr(scope, 'str', d)} {self.pick(CMP_OPS)} {rhs}"
        if c == "cmp_date":
            rhs = self.col(scope, "date") if self.chance(0.3) else self.literal("date")
            return f"{self.col(scope, 'date')} {self.pick(CMP_OPS)} {rhs}"
        if c == "isnull":
            return f"{self.expr(scope, self.pick(VALUE_KINDS[:-1]), d)} IS {self.pick(['', 'NOT '])}NULL"
        if c == "between":
            k = self.pick(["int", "int", "dec", "date"])
            lo, hi = sorted([self.literal(k), self.literal(k)]) if k == "date" else (self.literal(k), self.literal(k))
            return f"{self.expr(scope, k, d)} {self.pick(['', 'NOT '])}BETWEEN {lo} AND {hi}"
        if c == "in":
            k = self.pick(["int", "int", "str"])
            vals = [self.literal(k) for _ in range(self.rng.randint(1, 4))]
            if self.chance(0.2):
                vals.append("NULL")
            return f"{self.expr(scope, k, d)} {self.pick(['', 'NOT '])}IN ({', '.join(vals)})"
        if c == "like":
            return f"{self.expr(scope, 'str', d)} {self.pick(['', 'NOT '])}LIKE '{self.pick(LIKE_PATTERNS)}'"
        # bool
        col = self.col(scope, "bool")
        return self.pick([col, f"NOT {col}", f"{col} = {self.literal('bool')}", "TRUE", "FALSE"])

    # ----------------------------------------------------------------------------------------- FROM
    def from_clause(self, max_tables: int = 3) -> tuple[list[FromStep], list[str], list[str]]:
        """FROM steps, the aliases in scope, and WHERE terms that belong to comma joins."""
        n = self.rng.choices([1, 2, 3], weights=[3, 5, 2])[0] if max_tables >= 3 else self.rng.randint(1, max_tables)
        steps = [self.from_item()]
        t = steps[0].table
        where: list[str] = []
        rows = max(TABLE_ROWS[t], 1)
        group = [steps[0].alias]  # aliases an ON may use (since the last comma)
        comma_seen = False
        for _ in range(n - 1):
            item = self.from_item()
            t, alias = item.table, item.alias
            kinds = ["INNER", "LEFT", "RIGHT", "FULL", "CROSS", "COMMA"]
            weights = [5, 4, 3, 3, 1, 3]
            if comma_seen:  # a RIGHT/FULL/CROSS after a comma would group differently in SQLite
                kinds, weights = ["INNER", "LEFT", "COMMA"], [3, 3, 1]
            if not self.full_joins and "FULL" in kinds:
                weights = [w for k, w in zip(kinds, weights) if k != "FULL"]
                kinds = [k for k in kinds if k != "FULL"]
            join = self.rng.choices(kinds, weights=weights)[0]
            product = rows * max(TABLE_ROWS[t], 1)
            step = item
            step.join = join
            if join in ("CROSS", "COMMA") and product > 20000:
                join = step.join = "COMMA"
            if join == "COMMA":
                comma_seen = True
                if product > 2000 or self.chance(0.7):
                    where.append(self.equi(self.pick(steps).alias, alias))
                group = [alias]
            elif join != "CROSS":
                # Hindsight runs a FULL JOIN only with an equality between its inputs.
                step.on = [self.equi(self.pick(group), alias) if join == "FULL" or self.chance(0.85)
                           else self.pred(group + [alias], 1)]
                if self.chance(0.3):
                    step.on.append(self.pred(group + [alias], 1))
                # SQLite 3.40 loses the rows of a later RIGHT/FULL JOIN after an ON that is constant (ON FALSE,
                # ON 7 = 8): every ON term names a column.
                step.on = [t if COLUMN_REF.search(t) else self.equi(self.pick(group), alias) for t in step.on]
                group.append(alias)
            else:
                group.append(alias)
            steps.append(step)
            rows = min(product, rows * 40)
        return steps, [s.alias for s in steps], where

    def from_item(self) -> FromStep:
        """A base table, or now and then a derived table (inline or as a CTE) over one."""
        if self.nesting == 0 and self.chance(0.12):
            self.nesting += 1
            try:
                sub = self.grouped() if self.chance(0.4) else self.plain()
            finally:
                self.nesting -= 1
            cols: dict[str, list[str]] = {}
            for i, k in enumerate(sub.kinds()):
                cols.setdefault(k, []).append(f"c{i}")
            alias = self.new_alias("d", "(derived)", cols)
            step = FromStep("(derived)", alias, sub=sub.render())
            if self.chance(0.4):
                step.cte = f"w{alias}"
            return step
        t = self.table()
        return FromStep(t, self.new_alias("x", t))

    def equi(self, left: str, right: str) -> str:
        """left.col = right.col for a kind both have (a derived table may lack some); without one, a condition
        on a column of each that is no equality (never a constant: see the ON clause above)."""
        kinds, weights = [], []
        for k, w in (("int", 8), ("str", 2), ("date", 1), ("dec", 1)):
            if self.cols_of(left, k) and self.cols_of(right, k):
                kinds.append(k)
                weights.append(w)
        if kinds:
            kind = self.rng.choices(kinds, weights=weights)[0]
            return f"{self.key_col(left, kind)} = {self.key_col(right, kind)}"
        lk, rk = next(iter(self.alias_cols[left])), next(iter(self.alias_cols[right]))
        return f"({self.col([left], lk)} IS NULL OR {self.col([right], rk)} IS NOT NULL)"

    # ----------------------------------------------------------------------------------------- subqueries
    def subquery_term(self, scope: list[str]) -> str:
        """A WHERE AND-term with a subquery, correlated with `scope` or not."""
        t = self.table()
        y = self.new_alias("y", t)
        inner = [y]
        c = self.pick(["in", "in", "exists", "scalar"])
        neg = self.pick(["", "NOT "])
        # Hindsight rejects a correlated NOT IN: mostly uncorrelated ones, then.
        corr = self.chance(0.15 if c == "in" and neg else 0.5)
        terms = []
        if corr:
            terms.append(self.correlation(y, scope))
        if self.chance(0.3):
            terms.append(self.pred(inner, 1))
        where = (" WHERE " + " AND ".join(terms)) if terms else ""
        if c == "in":
            kind = self.pick(["int", "int", "int", "str"])
            outer = self.key_col(self.pick(scope), kind) if self.chance(0.7) else self.expr(scope, kind, 1)
            return f"{outer} {neg}IN (SELECT {self.key_col(y, kind)} FROM {t} AS {y}{where})"
        if c == "exists":
            return f"{neg}EXISTS (SELECT 1 FROM {t} AS {y}{where})"
        kind = self.pick(["int", "int", "dec"])
        agg = self.pick(["max", "min", "sum", "count"])
        arg = "*" if agg == "count" and self.chance(0.5) else f"{y}.{self.pick(KIND_COLUMNS[kind])}"
        return f"{self.expr(scope, 'int', 1)} {self.pick(CMP_OPS)} (SELECT {agg}({arg}) FROM {t} AS {y}{where})"

    def correlation(self, inner: str, scope: list[str]) -> str:
        """inner.col = outer.col, half of the time of one type (Hindsight decorrelates a scalar subquery only when
        the inner side is a column, or an INTEGER column widened to BIGINT; K5 of known_failures.md)."""
        kind = self.pick(["int", "int", "str"])
        if kind == "int" and self.chance(0.5):
            name = self.pick(["a", "b", "k"])
            same = ["k"] if name == "k" else ["a", "b"]
            outer = [f"{a}.{c}" for a in scope for c in self.cols_of(a, "int") if c in same]
            if outer:
                return f"{inner}.{name} = {self.pick(outer)}"
        return f"{self.key_col(inner, kind)} = {self.col(scope, kind)}"

    def scalar_item(self, scope: list[str]) -> tuple[str, str]:
        """A scalar subquery for the select list: an aggregate, correlated by an equality or not."""
        t = self.table()
        y = self.new_alias("y", t)
        where = ""
        if self.chance(0.7):
            where = f" WHERE {self.correlation(y, scope)}"
        agg = self.pick(["count", "count", "max", "min", "sum"])
        if agg == "count":
            arg = "*" if self.chance(0.5) else f"{y}.{self.pick(['a', 'b', 's'])}"
            return f"(SELECT count({arg}) FROM {t} AS {y}{where})", "int"
        kind = self.pick(["int", "dec"])
        return f"(SELECT {agg}({y}.{self.pick(KIND_COLUMNS[kind])}) FROM {t} AS {y}{where})", kind

    # ----------------------------------------------------------------------------------------- aggregates
    def aggregate(self, scope: list[str]) -> tuple[str, str, str]:
        """(SQL, result kind, the TLP combiner or '') of one aggregate call."""
        c = self.pick(["count_star", "count", "count_distinct", "sum", "min", "max", "avg"])
        if c == "count_star":
            return "count(*)", "int", "sum"
        if c == "count":
            return f"count({self.expr(scope, self.pick(VALUE_KINDS[:-1]), 1)})", "int", "sum"
        if c == "count_distinct":
            return f"count(DISTINCT {self.expr(scope, self.pick(VALUE_KINDS[:-1]), 1)})", "int", ""
        if c == "sum":
            k = self.pick(NUMERIC)
            return f"sum({self.expr(scope, k, 1)})", k, "sum"
        if c in ("min", "max"):
            k = self.pick(["int", "dec", "dbl", "str", "date"])
            return f"{c}({self.expr(scope, k, 1)})", k, c
        k = self.pick(["int", "dbl"])
        return f"avg({self.expr(scope, k, 1)})", "dbl", ""

    # ----------------------------------------------------------------------------------------- queries
    def where_terms(self, scope: list[str]) -> list[str]:
        terms = []
        if self.chance(0.6):
            terms.append(self.pred(scope, 2))
        if self.chance(0.45):
            terms.append(self.subquery_term(scope))
        if self.chance(0.1):
            terms.append(self.subquery_term(scope))
        return terms

    def plain(self, kinds: Optional[list[str]] = None, exact: bool = False) -> Query:
        saved, self.exact = self.exact, exact
        try:
            return self._plain(kinds)
        finally:
            self.exact = saved

    def _plain(self, kinds: Optional[list[str]]) -> Query:
        steps, scope, where = self.from_clause()
        free = kinds is None  # a union side must keep the given column kinds
        if kinds is None:
            kinds = [self.pick(VALUE_KINDS) for _ in range(self.rng.randint(1, 4))]
        items = [(self.expr(scope, k, 2), k) for k in kinds]
        if free and self.chance(0.2):
            items.append(self.scalar_item(scope))
        q = Query(items, steps, where + self.where_terms(scope), predicate_scope=scope)
        return q

    def grouped(self) -> Query:
        steps, scope, where = self.from_clause()
        keys = []
        for _ in range(self.rng.randint(1, 2)):
            k = self.pick(["int", "int", "str", "date", "dec", "bool"])
            if not any(self.cols_of(a, k) for a in scope):
                k = "int" if any(self.cols_of(a, "int") for a in scope) else next(iter(self.alias_cols[scope[0]]))
            self.exact = True
            key = self.col(scope, k) if self.chance(0.75) else self.expr(scope, k, 1)
            self.exact = False
            if "." not in key:  # a constant: GROUP BY 2 would be an ordinal
                key = self.col(scope, k)
            keys.append((key, k))
        aggs = [self.aggregate(scope) for _ in range(self.rng.randint(1, 3))]
        items = keys + [(a, k) for a, k, _ in aggs]
        having = []
        if self.chance(0.4):
            a, k, _ = self.aggregate(scope)
            lit = self.literal(k if k in NUMERIC else "int") if k in NUMERIC else None
            having.append(f"{a} {self.pick(CMP_OPS)} {lit}" if lit else f"{a} IS NOT NULL")
        return Query(items, steps, where + self.where_terms(scope), group_by=[e for e, _ in keys], having=having,
                     aggregate=True, predicate_scope=scope, keys=keys)

    def global_aggregate(self) -> Query:
        steps, scope, where = self.from_clause()
        aggs = [self.aggregate(scope) for _ in range(self.rng.randint(1, 3))]
        q = Query([(a, k) for a, k, _ in aggs], steps, where + self.where_terms(scope), aggregate=True,
                  predicate_scope=scope)
        if all(c for _, _, c in aggs):
            q.tlp_aggregates = [c for _, _, c in aggs]
        return q

    def query(self):
        c = self.rng.choices(["plain", "grouped", "global", "distinct", "union"], weights=[40, 25, 15, 7, 13])[0]
        if c in ("plain", "grouped"):
            q = self.plain() if c == "plain" else self.grouped()
            if self.chance(0.2):
                self.order(q)
            return q
        if c == "global":
            return self.global_aggregate()
        if c == "distinct":
            q = self.plain(exact=True)
            q.distinct = True
            return q
        kinds = [self.pick(VALUE_KINDS[:-1]) for _ in range(self.rng.randint(1, 3))]
        return Union(self.plain(kinds, exact=True), self.plain(kinds, exact=True), self.chance(0.5))

    def order(self, q: Query) -> None:
        """ORDER BY every output column (each with its direction and NULLS placement), and when every column is
        of a kind both engines order alike (no DECIMAL or DOUBLE: SQLite's are inexact) sometimes a LIMIT,
        which then cuts through no tie but between equal rows."""
        idx = list(range(len(q.items)))
        self.rng.shuffle(idx)
        q.order_by = [(i, f"{self.pick(['ASC', 'DESC'])} NULLS {self.pick(['FIRST', 'LAST'])}") for i in idx]
        if all(k in ("int", "str", "date", "bool") for k in q.kinds()) and self.chance(0.6):
            q.limit = f"LIMIT {self.rng.randint(0, 12)}" + (f" OFFSET {self.rng.randint(0, 5)}" if self.chance(0.4)
                                                           else "")

    def predicate_for(self, q: Query) -> str:
        """The TLP predicate: over the FROM's columns, or for a GROUP BY query over its keys and aggregates (a
        HAVING term)."""
        if q.group_by:
            return self.pred_over_keys(q.keys, q.predicate_scope, 2)
        return self.pred(q.predicate_scope, 2)

    def pred_over_keys(self, keys: list[tuple[str, str]], scope: list[str], depth: int) -> str:
        if depth > 0 and self.chance(0.3):
            c = self.pick(["and", "or", "not", "isnull"])
            a = self.pred_over_keys(keys, scope, depth - 1)
            if c == "not":
                return f"(NOT {a})"
            if c == "isnull":
                return f"(({a}) IS {self.pick(['', 'NOT '])}NULL)"
            return f"({a} {c.upper()} {self.pred_over_keys(keys, scope, depth - 1)})"
        if self.chance(0.2):
            self.exact = True
            agg, kind, _ = self.aggregate(scope)
            self.exact = False
            if kind in ("int",):
                return f"{agg} {self.pick(CMP_OPS)} {self.rng.randint(0, 4)}"
            return f"{agg} IS {self.pick(['', 'NOT '])}NULL"
        e, k = self.pick(keys)
        if self.chance(0.25):
            return f"{e} IS {self.pick(['', 'NOT '])}NULL"
        if k == "bool":
            return self.pick([e, f"NOT {e}"])
        if k in NUMERIC:
            c = self.pick(["cmp", "cmp", "between", "in"])
            if c == "between":
                return f"{e} {self.pick(['', 'NOT '])}BETWEEN {self.literal('int')} AND {self.literal('int')}"
            if c == "in":
                return f"{e} {self.pick(['', 'NOT '])}IN ({', '.join(self.literal('int') for _ in range(3))})"
            return f"{e} {self.pick(CMP_OPS)} {self.literal(k if k != 'dbl' else 'int')}"
        if k == "str" and self.chance(0.4):
            return f"{e} {self.pick(['', 'NOT '])}LIKE '{self.pick(LIKE_PATTERNS)}'"
        return f"{e} {self.pick(CMP_OPS)} {self.literal(k)}"


@dataclass
class Literal:
    """A query given as text (run_random.py --sql)."""
    text: str

    def render(self, extra_where: Optional[str] = None) -> str:
        return self.text


def tlp_queries(q, p: str) -> Optional[str]:
    """The ternary logic partitioning of q on p: a query that must return what q returns, or None when q's shape
    has no such form here (UNION, ORDER BY/LIMIT, aggregates other than count/sum/min/max without GROUP BY). For
    GROUP BY queries p partitions the groups (a HAVING term); for DISTINCT ones the partitions are UNIONed."""
    if not isinstance(q, Query) or q.order_by or q.limit:
        return None
    terms = (f"({p})", f"(NOT ({p}))", f"(({p}) IS NULL)")
    if q.group_by:  # TLP on HAVING: every group lands in exactly one partition
        parts = [q.render(with_ctes=False, extra_having=t) for t in terms]
        return with_clause(q.cte_defs()) + " UNION ALL ".join(parts)
    parts = [q.render(t, with_ctes=False) for t in terms]
    if q.distinct:  # DISTINCT Q = the distinct union of the partitions
        return with_clause(q.cte_defs()) + " UNION ".join(parts)
    if not q.aggregate:
        return with_clause(q.cte_defs()) + " UNION ALL ".join(parts)
    if not q.tlp_aggregates:
        return None
    outer = ", ".join(f"{c}(u.c{i}) AS c{i}" for i, c in enumerate(q.tlp_aggregates))
    return with_clause(q.cte_defs()) + f"SELECT {outer} FROM (" + " UNION ALL ".join(parts) + ") AS u"


def shrink_candidates(q):
    """Smaller variants of q, for the minimizer (each drops one part; some will no longer bind)."""
    out = []
    if isinstance(q, Union):
        out += [q.left, q.right]
        for side in ("left", "right"):
            for c in shrink_candidates(getattr(q, side)):
                u = copy.deepcopy(q)
                setattr(u, side, c)
                out.append(u)
        return out
    for field_name in ("items", "where", "group_by", "having"):
        parts = getattr(q, field_name)
        for i in range(len(parts)):
            if field_name == "items" and len(parts) == 1:
                continue
            c = copy.deepcopy(q)
            del getattr(c, field_name)[i]
            if field_name == "items" and c.tlp_aggregates:
                del c.tlp_aggregates[i]
            if field_name == "items":
                c.order_by = [(j - (j > i), d) for j, d in c.order_by if j != i]
            out.append(c)
    if q.limit or q.order_by:
        c = copy.deepcopy(q)
        c.limit = ""
        out.append(c)
    if q.order_by and not q.limit:
        c = copy.deepcopy(q)
        c.order_by = []
        out.append(c)
    for i in range(len(q.steps) - 1, 0, -1):
        c = copy.deepcopy(q)
        del c.steps[i]
        out.append(c)
        if q.steps[i].join not in ("INNER", "COMMA", "CROSS"):
            c = copy.deepcopy(q)
            c.steps[i].join = "INNER"
            out.append(c)
        for j in range(len(q.steps[i].on)):
            c = copy.deepcopy(q)
            del c.steps[i].on[j]
            out.append(c)
    if q.distinct:
        c = copy.deepcopy(q)
        c.distinct = False
        out.append(c)
    return out
