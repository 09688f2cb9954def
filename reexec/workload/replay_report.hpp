#pragma once
// The arithmetic of a replay's report (docs/workload.md): per query speedup and work ratio, the summary
// (geometric means, shares improved and regressed, failures fixed and introduced, results that differ) and the
// comparison with an oracle replay. Plain figures in, figures out: tested on a fixed synthetic report.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hindsight::workload {

/// Beyond this ratio (either way) a query counts as improved or regressed (by time and by work).
constexpr double kChangeBand = 1.10;
/// Within this ratio of the oracle replay's time (or work) a query counts as "near the oracle plan".
constexpr double kOracleBand = 1.20;
/// Times under this are taken as this (ms): a ratio of two timer readings near zero means nothing.
constexpr double kMinMs = 0.01;

/// One query's replay next to its capture.
struct QueryReplay {
  std::string name;
  bool captured_ok = false;
  bool ok = false;             ///< the replay's status
  std::string error;           ///< "CODE: message" of a replay that failed
  /// The replay's digest equals the capture's; nullopt when there is nothing to compare (either failed).
  std::optional<bool> results_match;
  /// A table the query read has another data version or row count than when captured: a differing result is
  /// what the other data gives, not a wrong answer (counted apart).
  bool data_changed = false;
  bool plan_changed = false;
  std::string plan_diff;
  double captured_ms = 0;  ///< plan + exec of every captured attempt
  double replayed_ms = 0;  ///< plan + exec of every attempt (the median of --repeat runs)
  /// The timed runs replayed_ms is the median of (with --repeat N > 1: the first run's planning plus each of the N
  /// executions of its plan after it, docs/workload.md "Timing").
  std::vector<double> runs_ms;
  /// The median of the timed runs' process CPU time (user + system of every worker), ms: less moved by the
  /// machine's other load than the wall times (it includes the oracle's counting when a run counts; a first run of
  /// several attempts includes them all).
  double cpu_ms = 0;
  /// The first run's replayed_ms split: compiling (the stats scopes' read included), executing, and the stats
  /// scopes' time after the runs (mapping, collecting, recording, the regression guard's look-up: not timed).
  double plan_ms = 0, exec_ms = 0, stats_ms = 0;
  double work_before = 0, work_after = 0;
  double qerror_before = 0, qerror_after = 0;
  int attempts = 0;
  uint64_t rows = 0;
  std::string digest;  ///< the replay's result digest (empty when it failed)
  std::string plan_hash;  ///< the replay's final plan (empty when it had none)
  bool promoted = false;  ///< --promote: its observations were written to the shared store

  bool compared() const { return captured_ok && ok; }
  /// captured / replayed time (> 1: faster now); 0 unless compared().
  double speedup() const;
  /// work_before / work_after (> 1: less work now); 0 unless compared() and both works are known.
  double work_ratio() const;
};

struct ReplaySummary {
  size_t queries = 0;
  size_t compared = 0;  ///< captured and replayed ok: what the time figures are over
  double geomean_speedup = 0;     ///< 0 when nothing compared
  double geomean_work_ratio = 0;  ///< over the compared queries with work on both sides
  double improved_share = 0, regressed_share = 0;            ///< by time, of the compared queries
  double improved_work_share = 0, regressed_work_share = 0;  ///< by work, of those with work
  size_t failures_fixed = 0;       ///< failed when captured, ok now
  size_t failures_introduced = 0;  ///< ok when captured, failed now
  size_t results_differ = 0;       ///< both ok, other digest, same data: a wrong answer somewhere
  size_t results_differ_other_data = 0;  ///< both ok, other digest, a table it read changed
  size_t plans_changed = 0;
  size_t promoted = 0;
};
ReplaySummary summarize(const std::vector<QueryReplay>& queries);

/// One query's time and work in some run (a replay mode, or the capture).
struct Measured {
  std::string name;
  bool ok = false;
  double ms = 0;
  double work = 0;
};
std::vector<Measured> replayed(const std::vector<QueryReplay>& queries);
std::vector<Measured> captured(const std::vector<QueryReplay>& queries);

/// A run against the oracle replay, over the queries ok in both (matched by name).
struct OracleComparison {
  size_t compared = 0;
  double within_share = 0;       ///< time <= kOracleBand x the oracle plan's
  double within_work_share = 0;  ///< work <= kOracleBand x the oracle plan's (of those with work)
  double geomean_ratio = 0;      ///< of time / oracle time (1: as fast as the oracle plan)
  double geomean_work_ratio = 0;
};
OracleComparison compare_with_oracle(const std::vector<Measured>& run, const std::vector<Measured>& oracle);

/// The geometric mean of positive values (0 for none).
double geomean(const std::vector<double>& values);

nlohmann::json query_json(const QueryReplay& q);
nlohmann::json summary_json(const ReplaySummary& s);
nlohmann::json oracle_json(const OracleComparison& c);

/// A table of the queries (one line each) followed by the summary, for people.
std::string replay_text(const std::string& feedback, const std::vector<QueryReplay>& queries,
                        const ReplaySummary& s);
std::string oracle_text(const std::string& run, const OracleComparison& c);

/// One row of the compact summary table: a replay mode (its summary and queries) or the capture (no summary,
/// only its comparison with the oracle); `vs_oracle` when an oracle replay ran.
struct SummaryRow {
  std::string run;  ///< "captured", "off", "on", "oracle"
  const ReplaySummary* summary = nullptr;
  const std::vector<QueryReplay>* queries = nullptr;
  std::optional<OracleComparison> vs_oracle;
};
/// The replay's default text: one table row per run (plans changed, geometric-mean speedup and work ratio,
/// shares within 1.2x of the oracle by work and time, shares regressed by time and work, failures fixed and
/// introduced, results that differ), a legend, then one line per query that needs a look (failed, result
/// differs, regressed by work), so that 34 queries x 3 modes stay a screenful; the per-query tables are
/// replay_text's (--verbose).
std::string summary_table_text(const std::vector<SummaryRow>& rows);

}  // namespace hindsight::workload
