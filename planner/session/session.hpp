#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/session/oracle.hpp"
#include "planner/session/query_pipeline.hpp"
#include "planner/session/statement_runner.hpp"
#include "stats_store/runtime_stats.hpp"

namespace hindsight {

/// Runs SQL scripts against one database with session settings. SET statements change the
/// settings; ANALYZE [table] recomputes and persists table statistics (see table_statistics_store.hpp);
/// every other statement is compiled and (unless a plain EXPLAIN) executed.
///
/// Observed statistics (settings().stats_scope): every statement that runs records what its
/// operators did, per signature, into the query scope (that statement's attempts), the process
/// scope (this session's bounded in-memory repository) and the persistent scope (a repository the
/// owner opens, e.g. the SQLite store); every statement is planned with what the scopes it may use
/// know, read once per statement for the tables it reads.
class Session {
 public:
  explicit Session(Database& db);
  ~Session();
  Settings& settings() { return settings_; }

  /// How to open the persistent scope, called on the first statement that uses it (a session that
  /// never does never opens it); what it appends to `warnings` goes to that statement's result.
  /// Without it, or when it returns null, the persistent scope is the process scope.
  using RepositoryOpener = std::function<std::unique_ptr<stats::StatsRepository>(std::vector<std::string>& warnings)>;
  void set_persistent_stats(RepositoryOpener open) { open_persistent_ = std::move(open); }
  /// The process scope: shared by every statement of this session.
  stats::StatsRepository& process_stats() { return *process_; }
  /// Signatures the process scope keeps (least recently observed evicted first).
  static constexpr size_t kProcessScopeCapacity = 100000;

  /// How query statements (SELECT, EXPLAIN) run: one attempt by default (SingleAttemptRunner); the
  /// re-execution driver (reexec/) installs itself here. Never null (null restores the default).
  void set_statement_runner(std::shared_ptr<StatementRunner> runner) {
    runner_ = runner ? std::move(runner) : std::make_shared<SingleAttemptRunner>();
  }

  /// Runs each statement in order; returns the result of the last non-SET statement (an error
  /// ends the script there). `explain`: treat queries as EXPLAIN (with `analyze`: EXPLAIN ANALYZE).
  StatementResult run_script(const std::string& sql, bool explain = false, bool analyze = false,
                             bool reoptimize = false);

 private:
  /// Analyzes the table named by `stmt` (every catalog table if none) again and persists the statistics.
  StatementResult run_analyze(const sql::AnalyzeStatement& stmt, const std::string& sql);

  /// The persistent scope, opened on first use (null without an opener or when it failed).
  stats::StatsRepository* persistent_stats(std::vector<std::string>& warnings);
  /// The scopes a statement uses under settings().stats_scope, innermost first (`query` included).
  std::vector<stats::StatsRepository*> scopes(stats::StatsRepository& query, std::vector<std::string>& warnings);

  Database& db_;
  Settings settings_;
  std::unique_ptr<stats::StatsRepository> process_;
  RepositoryOpener open_persistent_;
  std::unique_ptr<stats::StatsRepository> persistent_;
  bool persistent_opened_ = false;
  std::shared_ptr<StatementRunner> runner_;
};

}  // namespace hindsight
