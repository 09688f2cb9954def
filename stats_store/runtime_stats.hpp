#pragma once
// What one attempt observed, keyed by signature: the records collection (planner/session) hands to
// a StatsRepository, and what the repositories (query, process, persistent scope) fold into their
// per-signature aggregates (DESIGN.md section 5). Knows signatures, never plan nodes.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "signatures/signature.hpp"
#include "stats_store/stats_source.hpp"

namespace hindsight::stats {

/// A base table as a query saw it: the data version (changes whenever the data changes) and its row
/// count. Observations remember the versions of their input tables; a look-up ignores an
/// observation whose input changed version and drifted in size (see StatsRepository::snapshot).
struct TableVersion {
  std::string name;
  std::string data_version;
  uint64_t rows = 0;
  bool operator==(const TableVersion&) const = default;
};

/// One signature's observation in one attempt, summed over the operators of the plan that carry it
/// (a replicated stream counted once). Figures other than rows are 0 when unknown.
struct RuntimeStats {
  StatsSource::KeyKind kind = StatsSource::KeyKind::Exact;
  sig::Signature signature;
  uint32_t signature_version = sig::SIGNATURE_VERSION;
  std::string operator_name;   ///< e.g. "Join", "Aggregate", "Scan" (for inspection)
  std::string canonical_text;  ///< readable form of the computation (for inspection, never parsed)
  double rows = 0;
  /// True when the operator was cut short (LIMIT early exit, failed or timed-out attempt, never
  /// finished): the true count is at least what was seen; in a failed attempt `rows` is what was seen divided by
  /// how far the table scans feeding it got (planner/session/stats_collection.cpp), an estimate of the whole. Never overwrites an
  /// exact count.
  bool lower_bound = false;
  uint64_t bytes = 0;         ///< output bytes
  int64_t peak_memory = 0;    ///< largest memory the operators held at once
  uint64_t cpu_ns = 0;
  uint64_t wall_ns = 0;
  uint64_t build_rows = 0;    ///< hash joins: rows of the build side
  uint64_t build_bytes = 0;   ///< hash joins: bytes the build side held
  uint64_t moved_rows = 0;    ///< exchanges: rows moved between workers
  uint64_t moved_bytes = 0;   ///< exchanges: bytes moved between workers
  /// Names of the base tables under this computation (their versions are in AttemptStats::tables).
  std::vector<std::string> input_tables;
};

/// Everything one execution attempt observed: what a repository records in one transaction.
struct AttemptStats {
  std::string query_text;  ///< the statement's SQL (for `stats show`)
  std::string query_hash;  ///< 32 hex digits identifying the statement text
  std::string plan_hash;   ///< the attempt's plan
  int attempt = 1;
  /// false: the attempt failed; what its operators did not finish is marked lower_bound, what they
  /// finished (a build side before the probe ran out of memory) is exact.
  bool succeeded = true;
  int64_t started_unix_ms = 0;
  std::vector<TableVersion> tables;  ///< the base tables the query read, as it read them
  std::vector<RuntimeStats> stats;
};

/// One answer a plan's planning got from its stats sources: a find() of one key, or a lookup() of a
/// node's keys (filed under its exact signature, which determines the others). Replaying a plan's
/// answers (ReplayStatsSource) plans the same plan again over the same data.
struct PlannedAnswer {
  enum class Call : uint8_t { FindExact, FindJoinSet, FindTemplate, Lookup };
  Call call = Call::Lookup;
  sig::Signature signature;
  ObservedRows observed;
  EstimateSource source = EstimateSource::Runtime;  ///< Lookup only
};

/// One successful run of a plan of a query template (the regression guard, docs/reexec.md).
struct PlanRun {
  std::string template_signature;  ///< the logical root's template signature (32 hex): the query template
  std::string plan_hash;
  double elapsed_ms = 0;
  int64_t at_unix_ms = 0;
  std::string query_text;
  std::vector<PlannedAnswer> answers;  ///< what its planning was told (replayed to plan it again)
};

/// What a scope remembers of one plan of a template.
struct PlanRecord {
  std::string template_signature;
  std::string plan_hash;
  uint64_t runs = 0;
  double best_ms = 0;  ///< the fastest run: what plans are compared by (noise only ever slows a run down)
  double last_ms = 0;
  int64_t first_seen_ms = 0;
  int64_t last_seen_ms = 0;
  std::string query_text;
  std::vector<PlannedAnswer> answers;  ///< of the latest run
};

/// At most this many plans are remembered per template (the least recently run are dropped).
inline constexpr size_t kPlansPerTemplate = 16;

/// Folds `run` into `plans` (the plan's record, or a new one; the oldest dropped past kPlansPerTemplate).
void fold_plan_run(std::vector<PlanRecord>& plans, const PlanRun& run);

/// PlannedAnswers as text (one line each) and back, for the SQLite store; unreadable lines are skipped.
std::string encode_answers(const std::vector<PlannedAnswer>& answers);
std::vector<PlannedAnswer> decode_answers(const std::string& text);

/// A stats scope that is read in one batch and written once per attempt: the query scope, the
/// process scope (bounded LRU) and the persistent SQLite store all implement it. Errors of a
/// store never escape: they become warnings (take_warnings) and the query goes on without
/// feedback, or read-only.
class StatsRepository {
 public:
  virtual ~StatsRepository() = default;
  /// Everything known about signatures observed over the given tables (each observation's input
  /// tables all among `tables`), read at once (the persistent store: one read) and answered from
  /// memory afterwards. An observation is left out when one of its input tables has another data
  /// version now and its row count drifted by more than `max_drift` (0.1 = 10 %) from the count
  /// it was observed with. Never returns null.
  virtual std::shared_ptr<const StatsSource> snapshot(const std::vector<TableVersion>& tables,
                                                      double max_drift) = 0;
  /// Folds one attempt into the per-signature aggregates (the persistent store: one transaction).
  virtual void record(const AttemptStats& attempt) = 0;
  /// Warnings since the last call (a store that could not be opened, read or written), each once.
  virtual std::vector<std::string> take_warnings() { return {}; }
  /// The regression guard's memory: remembers a successful run of a plan of a template. Default: nothing.
  virtual void record_plan_run(const PlanRun& run) {}
  /// Every plan remembered for a template (any order); empty when none (or the scope keeps none).
  virtual std::vector<PlanRecord> plan_history(const std::string& template_signature) { return {}; }
};

}  // namespace hindsight::stats
