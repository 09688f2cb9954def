#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/session/oracle.hpp"
#include "planner/session/query_pipeline.hpp"
#include "planner/session/regression_guard.hpp"
#include "stats_store/plan_history.hpp"
#include "stats_store/runtime_stats.hpp"

namespace hindsight {

/// One execution attempt of a statement, as reported to users (DESIGN.md section 8).
struct Attempt {
  int number = 1;
  std::optional<Error> error;
  double elapsed_ms = 0;
  std::string plan_hash;      ///< empty when the query did not get as far as a plan
  std::string reexec_reason;  ///< why this attempt was made (empty for the first)
  /// What re-execution decided after this attempt when it made no further attempt of it: a misestimate
  /// learned, a re-plan that did not change or gained too little (empty: nothing decided).
  std::string reexec_decision;
  /// The decision changed nothing (the re-plan gave the same plan): JSON only, not a stderr line.
  bool reexec_decision_quiet = false;
  /// Compiling (table loads included), the stats scopes' read that the planner makes and, on attempt 1,
  /// the regression guard's look-up and re-plan: everything before execution that a user's query waits for.
  double plan_ms = 0;
  /// Time the stats scopes took: reading them before planning and the regression guard (both inside
  /// plan_ms), and mapping, collecting and recording what the attempt observed after it ran (inside
  /// neither plan_ms nor elapsed_ms: the result is ready before them).
  double stats_ms = 0;
  /// The most memory the attempt held at once, tables it loaded included (what `memory_limit` is
  /// checked against); 0 when it did not run.
  int64_t peak_memory = 0;
  /// What its operators wrote to spill files (spill = on, docs/spilling.md); 0 when nothing spilled.
  uint64_t spilled_bytes = 0;
  /// CPU time of the execution (ExecutedQuery::cpu_ms), every worker thread: JSON only.
  double cpu_ms = 0;
  /// Spilling in place (reexec_spill_in_place): what was decided at the attempt's first overflow (empty: nothing
  /// was asked) and whether it went on spilling.
  std::string spill_in_place;
  bool spilled_in_place = false;
  /// The filtered scans this attempt's planning counted first (count_scans_first on the first attempt,
  /// reexec_count_scans on a re-plan) and what the counting took (inside plan_ms): JSON only.
  std::vector<CountedScan> counted;
  double counting_ms = 0;

  /// A statement's only attempt, where no runner made one (ANALYZE, errors before or around planning).
  static Attempt only(std::optional<Error> error, double elapsed_ms = 0, std::string plan_hash = "") {
    Attempt a;
    a.error = std::move(error);
    a.elapsed_ms = elapsed_ms;
    a.plan_hash = std::move(plan_hash);
    return a;
  }
};

/// The outcome of the last non-SET statement of a script.
struct StatementResult {
  bool is_explain = false;
  bool analyze = false;
  bool reoptimization = false;  ///< EXPLAIN REOPTIMIZATION (explain --reoptimize): see `reoptimized`
  /// An ANALYZE statement: `compiled` only names the result columns (table, rows, columns, seconds; no plans,
  /// no signatures) and `executed` holds one row per analyzed table.
  bool is_analyze_statement = false;
  std::unique_ptr<CompiledQuery> compiled;  ///< null if compilation failed
  ExecutedQuery executed;                   ///< empty unless the query ran
  std::vector<Attempt> attempts;
  std::optional<Error> error;  ///< the error that ended the statement, if any
  /// What the statement's attempts observed (empty with stats_scope = off or when nothing ran).
  std::vector<stats::AttemptStats> observed;
  /// With cardinality = oracle: what the oracle computed before the statement was planned.
  std::optional<OracleReport> oracle;
  /// Warnings of the stats scopes (a store that could not be opened, read or written), each once.
  std::vector<std::string> warnings;
  /// EXPLAIN REOPTIMIZATION: the plan made after the run with what it observed (null: not asked, or
  /// the re-plan failed) and what changed against the plan that ran (describe_plan_change; empty:
  /// the same joins).
  std::unique_ptr<CompiledQuery> reoptimized;
  std::string reoptimize_change;
  /// The regression guard found the first attempt's plan demoted (settings.regression_guard).
  std::optional<RegressionGuardReport> regression_guard;
  bool ok() const { return !error; }
};

/// `e` with a caret excerpt of `sql` at its position, when it has a position in the script but no
/// excerpt yet (runtime errors carry the position of the expression that raised them).
Error with_excerpt(const Error& e, const std::string& sql);

/// What the Session hands a StatementRunner for one query statement (SELECT or EXPLAIN): the
/// statement, the session's settings and the stats scopes the statement reads and feeds.
struct StatementInput {
  Database& db;
  const sql::Query& query;
  const std::string& sql;         ///< the whole script (positions in errors refer to it)
  const Settings& settings;       ///< the session's settings at this statement
  bool execute = true;            ///< false: a plain EXPLAIN (plan only)
  /// The statement cannot change data, so running it again is safe. Every query statement is a
  /// SELECT or EXPLAIN today, so the Session sets it for all; a future DML statement must set it
  /// false (the re-execution driver never runs such a statement twice).
  bool side_effect_free = true;
  /// innermost first; [0] is the statement's query scope (one attempt chain), empty with stats off.
  std::vector<stats::StatsRepository*> scopes;
  std::vector<std::string>* warnings = nullptr;  ///< the script's warnings (the scopes' go here)
  /// EXPLAIN REOPTIMIZATION: after the run, plan again with what it observed (StatementResult::reoptimized).
  bool reoptimize = false;
};

/// One attempt of a statement: planned (and, unless a plain EXPLAIN, executed) under `settings`.
struct AttemptRun {
  int number = 1;
  Settings settings;                    ///< this attempt's settings (the session's plus any overlay)
  std::unique_ptr<QueryLimits> limits;  ///< this attempt's memory budget and deadline
  /// A re-execution: the tables the first attempt loaded are charged to this attempt's budget too.
  const QueryLimits* charge_loads_of = nullptr;
  std::unique_ptr<CompiledQuery> compiled;
  std::optional<OracleReport> oracle;
  /// Count the filtered scans the scopes know no exact count of before planning (count_filtered_scans: a re-plan
  /// after a failed attempt, settings.reexec_count_scans; attempt 1 counts when settings.count_scans_first); what
  /// was counted and what it cost.
  bool count_scans = false;
  std::optional<OracleReport> counting;
  std::vector<CountedScan> counted;
  ExecutedQuery executed;
  bool executed_run = false;                 ///< execute_attempt ran (executed holds the run)
  std::optional<Error> error;                ///< what ended the attempt (compilation or execution)
  std::optional<stats::AttemptStats> observed;  ///< what it recorded into the scopes
  double stats_ms = 0;
  std::string reexec_reason;                 ///< why this attempt was made (empty for the first)
  std::string reexec_decision;               ///< see Attempt::reexec_decision
  bool reexec_decision_quiet = false;
  /// Every answer this attempt's planning got from the scopes (what the regression guard replays).
  std::shared_ptr<const stats::RecordingStatsSource> answers;
  std::optional<RegressionGuardReport> guard;  ///< attempt 1: the regression guard's finding
  bool aborted = false;  ///< a stage threw (compilation, or mapping/collecting after the run)
  /// Whether users see this attempt: it ran, or it failed.
  bool reported() const { return executed_run || error.has_value(); }
  /// The Attempt users see (DESIGN.md section 8).
  Attempt report() const;
};

/// Plans attempt `run.number` under `run.settings` (with cardinality = oracle: counts, then plans
/// again), asking the scopes once. Attempt 1 goes past the regression guard: a plan of its template
/// that ran more than 10 % slower than the best known one is planned again with the best plan's
/// statistics (`run.guard`, a warning). Never throws: a failure lands in `run.error` (with its excerpt).
void plan_attempt(const StatementInput& in, AttemptRun& run);
/// Executes the planned attempt, then maps, collects and records what it observed into every scope
/// (a successful run also records its plan's time for the regression guard).
/// Never throws (a failure lands in `run.error`).
void execute_attempt(const StatementInput& in, AttemptRun& run);
/// Appends the attempt's Attempt (when reported()) and its observations to `result`.
void record_attempt(AttemptRun& run, StatementResult& result);
/// record_attempt, then moves the attempt's plan, run, oracle report and error into `result`: the
/// attempt that ends the statement.
void adopt_attempt(AttemptRun&& run, StatementResult& result);

/// Runs one query statement: how many attempts and with what settings. The Session owns settings
/// and scopes and calls its runner for every SELECT/EXPLAIN; `reexec/` implements a runner that
/// re-executes (docs/reexec.md), the default runs one attempt.
class StatementRunner {
 public:
  virtual ~StatementRunner() = default;
  /// Fills result.compiled/executed/attempts/error/observed/oracle. Must not throw.
  virtual void run(const StatementInput& in, StatementResult& result) = 0;
};

/// One attempt: plan, execute (unless a plain EXPLAIN), record. The behaviour of a Session without
/// a re-execution driver, and of the driver with reexec_strategies = none.
class SingleAttemptRunner final : public StatementRunner {
 public:
  void run(const StatementInput& in, StatementResult& result) override;
};

}  // namespace hindsight
