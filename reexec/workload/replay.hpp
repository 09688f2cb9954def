#pragma once
// `hindsight replay`: re-plan and re-execute every query of a captured workload under a feedback mode and
// compare each with its capture (docs/workload.md).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "planner/session/session.hpp"
#include "reexec/plan_diff.hpp"
#include "reexec/workload/replay_report.hpp"
#include "reexec/workload/workload.pb.h"
#include "stats_store/oracle_run.hpp"

namespace hindsight::workload {

/// off: the model alone (stats_scope = off); on: the store plus what the replay observes, query after query
/// (stats_scope = persistent); oracle: true cardinalities (cardinality = oracle, stats_scope = off: its exact
/// counts are not written to the store).
enum class Feedback { Off, On, Oracle };
std::string feedback_name(Feedback f);
/// "off", "on", "oracle"; throws BIND_ERROR for anything else.
Feedback parse_feedback(const std::string& name);

struct ReplayInput {
  /// A fresh database over the replay's data, one per mode (so that every mode, like the capture, starts cold).
  std::function<std::unique_ptr<Database>()> open_db;
  /// Sets a new session up as capture did (the re-execution driver installed); called once per mode.
  std::function<void(Session&)> configure;
  /// Opens the shared stats store (the persistent scope of `on`).
  Session::RepositoryOpener open_store;
  std::vector<Feedback> modes;
  /// Settings applied after the workload's and each query's (name, value), before the mode's.
  std::vector<std::pair<std::string, std::string>> sets;
  int repeat = 1;  ///< runs per query; times are their median
  /// With `on`: observations go to a scratch scope and reach the shared store only for a query whose replay
  /// matched its captured result and was not slower (promotion_allowed).
  bool promote = false;
  /// The oracle replays a store recorded for a workload key (workload_key()), one per data key; asked only when no
  /// oracle mode runs. Unset: none is looked for. May throw (the store's error becomes the report's note).
  std::function<std::vector<stats::OracleRun>(const std::string& workload_key)> load_oracle;
  /// Records an oracle mode's figures (after it ran). Unset: nothing is recorded. A throw is reported
  /// (ReplayReport::oracle_record_error), the replay's report stands.
  std::function<void(const stats::OracleRun&)> save_oracle;
  /// Called before each query (index from 0) and once at the end of each mode (index == total).
  std::function<void(Feedback mode, size_t index, size_t total, const std::string& name)> progress;
};

/// The promotion rule: the replay is ok, its results matched, and it was not slower than the capture beyond
/// noise: replayed_ms <= max(kChangeBand x captured_ms, captured_ms + kPromoteSlackMs).
constexpr double kPromoteSlackMs = 5;
bool promotion_allowed(const QueryReplay& q);

struct ModeReplay {
  Feedback feedback = Feedback::Off;
  std::vector<QueryReplay> queries;
  ReplaySummary summary;
};

/// Where the oracle figures of a report come from.
struct OracleSource {
  enum class Kind { None, SameRun, Store };
  Kind kind = Kind::None;
  int64_t recorded_ms = 0;  ///< Store: when that oracle replay was recorded (unix ms)
  size_t queries = 0;       ///< Store: the queries it recorded
  /// One line for people: where the figures came from, or why there are none (other data, nothing recorded).
  std::string note;
};

struct ReplayReport {
  /// One warning when the workload was captured on other data (naming the tables), else empty.
  std::string data_warning;
  std::vector<ModeReplay> modes;
  /// When oracle is among the modes, or the store recorded an oracle replay of this workload on this data: every
  /// other mode, and the capture, against it (name, comparison).
  std::vector<std::pair<std::string, OracleComparison>> oracle;
  OracleSource oracle_source;
  bool oracle_recorded = false;     ///< this run's oracle figures were written to the store
  std::string oracle_record_error;  ///< why they could not be (the store's error), else empty
  /// The queries' warnings (the stats scopes', the oracle's), each once, as "name (feedback mode): warning".
  std::vector<std::string> warnings;
  /// Results that differ on unchanged data in some mode: the replay's exit code is 1.
  bool results_differ() const;
};

/// Replays every captured query under each mode in turn. Throws only for a setting of the workload that this
/// binary does not accept (TYPE_ERROR / BIND_ERROR); a query that fails is reported as failed.
ReplayReport replay_workload(const Workload& w, const ReplayInput& in);

/// The workload's identity for the store's oracle replays: a digest (32 hex) of every query's name, text and
/// settings, the workload's settings and the replay's `sets`.
std::string workload_key(const Workload& w, const std::vector<std::pair<std::string, std::string>>& sets);
/// The data a workload replays on: a digest (32 hex) of each recorded table's name, data version and row count as
/// `db` has them now (a table missing now counts as such).
std::string data_key(const Workload& w, Database& db);
/// "2026-12-02 01:20 UTC" for unix ms.
std::string utc_time_text(int64_t unix_ms);

/// The joins of a captured plan, as reexec::plan_joins collects them from a physical plan (with the build
/// sides' estimated and actual rows).
std::vector<reexec::PlanJoin> captured_joins(const PlanNode& root);

/// The tables whose data version or row count differ from the capture's (or that are missing now), each as
/// "name (rows A -> B, data version X -> Y)".
std::vector<std::string> changed_tables(const Workload& w, Database& db, std::vector<std::string>* names = nullptr);

/// JSON: one mode as {"queries": [...], "summary": {...}}; several as {"replays": [{"feedback", "queries",
/// "summary"}, ...], "oracle_comparison": {...}}. Either way "data_warning" when there is one.
nlohmann::json replay_json(const ReplayReport& r);
/// Text for people: the summary table (summary_table_text: a row per mode, and the capture's row when an oracle
/// replay ran) and the queries that need a look; `verbose` puts every mode's per-query table, its summary and
/// the oracle comparison lines before it.
std::string replay_report_text(const ReplayReport& r, bool verbose = false);

}  // namespace hindsight::workload
