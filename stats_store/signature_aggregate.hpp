#pragma once
// What every stats scope remembers about one (kind, signature): the fold of its observations. The one
// place the aggregation rules live (docs/stats-store.md "Aggregation"); the memory scopes and the SQLite
// store both keep these and answer through MemoryStatsSource.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "signatures/signature.hpp"
#include "stats_store/runtime_stats.hpp"
#include "stats_store/stats_source.hpp"

namespace hindsight::stats {

/// "exact" | "join_set" | "template": how kinds are spelled in the store, exports and the CLI.
const char* key_kind_name(StatsSource::KeyKind kind);
std::optional<StatsSource::KeyKind> key_kind_from_name(std::string_view name);

struct SignatureAggregate {
  StatsSource::KeyKind kind = StatsSource::KeyKind::Exact;
  sig::Signature signature;
  uint32_t signature_version = sig::SIGNATURE_VERSION;
  std::string operator_name;
  std::string canonical_text;
  uint64_t observations = 0;        ///< every observation, lower bounds included
  uint64_t exact_observations = 0;  ///< observations that saw the whole output
  double last_rows = 0;             ///< the latest exact count (0 while lower_bound_only)
  double sum_rows = 0;              ///< over exact observations (mean = sum_rows / exact_observations)
  double min_rows = 0;
  double max_rows = 0;
  double max_lower_bound = 0;       ///< the largest lower bound seen
  uint64_t last_bytes = 0;
  int64_t last_peak_memory = 0;
  uint64_t last_build_rows = 0;
  uint64_t last_build_bytes = 0;
  uint64_t last_cpu_ns = 0;
  uint64_t last_wall_ns = 0;
  int64_t first_seen_ms = 0;
  int64_t last_seen_ms = 0;
  /// The input tables as the latest observation saw them (staleness check).
  std::vector<TableVersion> inputs;

  bool lower_bound_only() const { return exact_observations == 0; }
  double mean_rows() const { return exact_observations ? sum_rows / static_cast<double>(exact_observations) : 0; }

  /// Folds one observation in (`lower_bound`: the operator was cut short; in a failed attempt, what finished is exact). A lower bound never lowers
  /// or replaces an exact count; the first exact observation ends lower-bound-only state. An observation of
  /// another signature version starts the aggregate afresh (the old figures describe another encoding).
  void fold(const RuntimeStats& s, bool lower_bound, int64_t seen_ms, std::vector<TableVersion> inputs_now);
  /// Merges another store's aggregate of the same key (import): counts add, extremes combine, and the
  /// `last_*` figures and inputs come from whichever was seen later.
  void merge(const SignatureAggregate& other);
  /// The answer a look-up gives (docs/stats-store.md "Confidence").
  ObservedRows answer() const;
};

/// Milliseconds since the Unix epoch, now.
int64_t unix_now_ms();

/// The input tables `names` as `tables` lists them; a name the attempt did not list gets an empty version
/// and 0 rows (so it is stale as soon as it is non-empty).
std::vector<TableVersion> input_versions(const std::vector<std::string>& names, const std::vector<TableVersion>& tables);

/// Whether an observation over `inputs` may answer for the tables as they are `now` (StatsRepository::snapshot):
/// every input among `now`, and none with another data version whose rows drifted by more than `max_drift`.
bool usable_now(const std::vector<TableVersion>& inputs, const std::vector<TableVersion>& now, double max_drift);

}  // namespace hindsight::stats
