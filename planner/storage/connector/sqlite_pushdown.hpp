#pragma once
#include <optional>
#include <string>
#include <vector>

#include "planner/storage/connector/scan_layout.hpp"
#include "planner/storage/connector/sqlite_handle.hpp"
#include "planner/storage/connector/sqlite_table.hpp"

namespace hindsight {

/// One WHERE term of a SQLite scan: SQL text with `?` placeholders and the values bound to them, in order.
struct SqliteTerm {
  std::string sql;
  std::vector<SqlParam> params;
};

/// Translates a conjunct over the scan's outputs into a SQLite WHERE term whose result is exactly the engine's
/// (three-valued, NULLs included), or nullopt when it cannot promise that. Accepted shapes:
///   column op literal (either side; =, <>, <, <=, >, >=), column [NOT] IN (literals), column IS [NOT] NULL,
///   VARCHAR column [NOT] LIKE literal (as GLOB, see below), and NOT / AND / OR of accepted terms.
/// Choices that keep the semantics equal (docs/connectors.md):
///   - identifiers are double-quoted (embedded quotes doubled), literals are always bound, never spliced;
///   - VARCHAR and DATE comparisons and IN lists carry COLLATE BINARY (the engine compares bytes; a column
///     declared COLLATE NOCASE in SQLite would otherwise change them);
///   - LIKE is case-insensitive in SQLite, so it becomes GLOB (case-sensitive, '*' / '?' = '%' / '_' on UTF-8
///     characters, like the engine) with GLOB's own metacharacters * ? [ escaped as [*] [?] [[];
///   - literal and column must have the same type family (no casts are pushed): integers bind as INTEGER, DOUBLE
///     as REAL (finite only), BOOLEAN as 0/1, DATE as 'YYYY-MM-DD' text (years 0..9999, whose text order is the
///     date order), DECIMAL(p,s) with p <= 15 as the REAL nearest the literal (decimals of at most 15 significant
///     digits map to distinct, order-preserving doubles, and the scan refuses stored values that are not such a
///     decimal); NULL literals, DECIMAL with p > 15 and everything else are refused.
std::optional<SqliteTerm> translate_sqlite_conjunct(const Expr& e, const ScanLayout& layout, const SqliteTable& table);

/// The GLOB pattern matching exactly what LIKE `pattern` matches in the engine ('%' -> '*', '_' -> '?', and
/// '*', '?', '[' escaped as '[*]', '[?]', '[[]').
std::string like_to_glob(const std::string& pattern);

}  // namespace hindsight
