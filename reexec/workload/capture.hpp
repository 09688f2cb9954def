#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "planner/session/session.hpp"
#include "reexec/workload/workload.pb.h"

namespace hindsight::workload {

/// One statement of a workload's SQL file.
struct NamedStatement {
  std::string name;  ///< `-- name: X` on a line before it (after the previous statement), else q1, q2, ... by query
  std::string sql;   ///< its text, without the ';'
  int line = 0;      ///< its first line in the file
  bool is_query = false;  ///< a SELECT (captured); SET statements apply to the queries after them
  bool ordered = false;   ///< a query with a top-level ORDER BY (its result digest keeps the row order)
  std::string set_name, set_value;  ///< a SET statement's setting
};

/// Splits a workload's SQL text into its statements with their names. Throws PARSE_ERROR (line:col) for text
/// that does not parse, and BIND_ERROR for two queries of one name. EXPLAIN and ANALYZE statements are refused
/// (NOT_SUPPORTED, with the line): a workload is queries and the settings they run under.
std::vector<NamedStatement> named_statements(const std::string& text);

struct CaptureInput {
  /// The session every statement runs in, set up as `query` sets it up (its store, its --set settings, the
  /// re-execution driver installed).
  Session* session = nullptr;
  Database* db = nullptr;
  std::string sql_text;
  std::string queries_file;  ///< recorded as given
  std::vector<std::pair<std::string, std::string>> sets;  ///< the --set settings, recorded
  /// Called before each query (index from 0) and once at the end (index == total).
  std::function<void(size_t index, size_t total, const std::string& name)> progress;
};

/// Runs every statement in order; a query that fails is recorded as failed (its error and attempts) and
/// capture goes on. Text without a query is a DATA_ERROR (nothing to capture). The tables of the catalog are recorded with their data versions and row counts.
Workload capture_workload(const CaptureInput& in);

/// A workload's SQL text rebuilt from recorded query texts (oldest first), for `capture --from-store`: every
/// query of every text (a script's text holds several), in order, named by a `-- name:` line before it or else
/// s1, s2, ... (by position among the kept ones; a name taken gets the next free sK). A text that does not parse,
/// a statement that is not a query (SET), and a query already kept are left out, with the reason in `skipped`
/// ("text 3: ...").
std::string workload_sql_from_texts(const std::vector<std::string>& texts, std::vector<std::string>* skipped);

/// The recorded query texts of the stats store at `path` last seen at or after `since_ms` (0: all), oldest
/// first, read without changing the store. IO_ERROR naming the path when there is no file; DATA_ERROR naming
/// it when the file is not a Hindsight stats store (or cannot be read as one).
std::vector<std::string> store_query_texts(const std::string& path, int64_t since_ms);

/// One line per query for people: name, status, rows, attempts, time, worst q-error.
std::string workload_text(const Workload& w);

}  // namespace hindsight::workload
