#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/session/query_pipeline.hpp"

namespace hindsight {

/// One execution attempt of a statement, as reported to users (DESIGN.md section 8).
struct Attempt {
  int number = 1;
  std::optional<Error> error;
  double elapsed_ms = 0;
  std::string plan_hash;      ///< empty when the query did not get as far as a plan
  std::string reexec_reason;  ///< why this attempt was made (empty for the first)
};

/// The outcome of the last non-SET statement of a script.
struct StatementResult {
  bool is_explain = false;
  bool analyze = false;
  /// An ANALYZE statement: `compiled` only names the result columns (table, rows, columns, seconds; no plans,
  /// no signatures) and `executed` holds one row per analyzed table.
  bool is_analyze_statement = false;
  std::unique_ptr<CompiledQuery> compiled;  ///< null if compilation failed
  ExecutedQuery executed;                   ///< empty unless the query ran
  std::vector<Attempt> attempts;
  std::optional<Error> error;  ///< the error that ended the statement, if any
  bool ok() const { return !error; }
};

/// Runs SQL scripts against one database with session settings. SET statements change the
/// settings; ANALYZE [table] recomputes and persists table statistics (see table_statistics_store.hpp);
/// every other statement is compiled and (unless a plain EXPLAIN) executed.
class Session {
 public:
  explicit Session(Database& db) : db_(db) {}
  Settings& settings() { return settings_; }

  /// Runs each statement in order; returns the result of the last non-SET statement (an error
  /// ends the script there). `explain`: treat queries as EXPLAIN (with `analyze`: EXPLAIN ANALYZE).
  StatementResult run_script(const std::string& sql, bool explain = false, bool analyze = false);

 private:
  /// Analyzes the table named by `stmt` (every catalog table if none) again and persists the statistics.
  StatementResult run_analyze(const sql::AnalyzeStatement& stmt, const std::string& sql);

  Database& db_;
  Settings settings_;
};

}  // namespace hindsight
