#include "stats_store/signature_aggregate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace hindsight::stats {

const char* key_kind_name(StatsSource::KeyKind kind) {
  switch (kind) {
    case StatsSource::KeyKind::Exact: return "exact";
    case StatsSource::KeyKind::JoinSet: return "join_set";
    case StatsSource::KeyKind::Template: return "template";
  }
  return "exact";
}

std::optional<StatsSource::KeyKind> key_kind_from_name(std::string_view name) {
  if (name == "exact") return StatsSource::KeyKind::Exact;
  if (name == "join_set") return StatsSource::KeyKind::JoinSet;
  if (name == "template") return StatsSource::KeyKind::Template;
  return std::nullopt;
}

void SignatureAggregate::fold(const RuntimeStats& s, bool lower_bound, int64_t seen_ms,
                              std::vector<TableVersion> inputs_now) {
  if (observations > 0 && s.signature_version != signature_version) *this = SignatureAggregate{};
  if (observations == 0) {
    kind = s.kind;
    signature = s.signature;
    first_seen_ms = seen_ms;
  }
  signature_version = s.signature_version;
  if (!s.operator_name.empty()) operator_name = s.operator_name;
  if (!s.canonical_text.empty()) canonical_text = s.canonical_text;
  ++observations;
  const double rows = std::isfinite(s.rows) && s.rows > 0 ? s.rows : 0;
  if (lower_bound) {
    max_lower_bound = std::max(max_lower_bound, rows);
  } else {
    min_rows = exact_observations ? std::min(min_rows, rows) : rows;
    max_rows = exact_observations ? std::max(max_rows, rows) : rows;
    ++exact_observations;
    last_rows = rows;
    sum_rows += rows;
  }
  // A cut-short operator's bytes and memory are what it held before it stopped: still the best figure
  // when nothing complete was seen, never one that replaces a complete observation's.
  if (!lower_bound || exact_observations == 0) {
    last_bytes = s.bytes;
    last_peak_memory = s.peak_memory;
    last_build_rows = s.build_rows;
    last_build_bytes = s.build_bytes;
    last_cpu_ns = s.cpu_ns;
    last_wall_ns = s.wall_ns;
  }
  last_seen_ms = std::max(last_seen_ms, seen_ms);
  inputs = std::move(inputs_now);
}

void SignatureAggregate::merge(const SignatureAggregate& o) {
  if (o.observations == 0) return;
  if (observations == 0 || o.signature_version != signature_version) {
    // Another encoding's figures never mix with ours: the newer version wins.
    if (observations == 0 || o.signature_version > signature_version) *this = o;
    return;
  }
  const bool other_later = o.last_seen_ms > last_seen_ms;
  if (o.exact_observations) {
    min_rows = exact_observations ? std::min(min_rows, o.min_rows) : o.min_rows;
    max_rows = exact_observations ? std::max(max_rows, o.max_rows) : o.max_rows;
    if (other_later || exact_observations == 0) last_rows = o.last_rows;
  }
  const bool take_figures = o.exact_observations ? (other_later || exact_observations == 0)
                                                 : (exact_observations == 0 && other_later);
  if (take_figures) {
    last_bytes = o.last_bytes;
    last_peak_memory = o.last_peak_memory;
    last_build_rows = o.last_build_rows;
    last_build_bytes = o.last_build_bytes;
    last_cpu_ns = o.last_cpu_ns;
    last_wall_ns = o.last_wall_ns;
  }
  if (other_later) {
    inputs = o.inputs;
    if (!o.operator_name.empty()) operator_name = o.operator_name;
    if (!o.canonical_text.empty()) canonical_text = o.canonical_text;
  }
  observations += o.observations;
  exact_observations += o.exact_observations;
  sum_rows += o.sum_rows;
  max_lower_bound = std::max(max_lower_bound, o.max_lower_bound);
  first_seen_ms = std::min(first_seen_ms, o.first_seen_ms);
  last_seen_ms = std::max(last_seen_ms, o.last_seen_ms);
}

ObservedRows SignatureAggregate::answer() const {
  ObservedRows r;
  r.bytes = last_bytes;
  r.peak_memory = last_peak_memory;
  r.build_bytes = last_build_bytes;
  if (lower_bound_only()) {
    r.rows = max_lower_bound;
    r.lower_bound = true;
    r.observations = static_cast<uint32_t>(std::min<uint64_t>(observations, UINT32_MAX));
    r.confidence = 0.5;  // a bound, not a count
  } else {
    r.rows = last_rows;  // the newest data
    r.observations = static_cast<uint32_t>(std::min<uint64_t>(exact_observations, UINT32_MAX));
    // 1 when every exact observation agreed; 1/2 when they spanned a factor 2, 1/3 for a factor 4...
    const double spread = std::max(max_rows, 1.0) / std::max(min_rows, 1.0);
    r.confidence = 1.0 / (1.0 + std::log2(spread));
  }
  // Other constants than the ones observed: the figure is a hint, not a measurement.
  if (kind == StatsSource::KeyKind::Template) r.confidence *= 0.5;
  return r;
}

int64_t unix_now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::vector<TableVersion> input_versions(const std::vector<std::string>& names,
                                         const std::vector<TableVersion>& tables) {
  std::vector<TableVersion> out;
  out.reserve(names.size());
  for (const auto& n : names) {
    auto it = std::find_if(tables.begin(), tables.end(), [&](const TableVersion& t) { return t.name == n; });
    out.push_back(it != tables.end() ? *it : TableVersion{n, "", 0});
  }
  return out;
}

bool usable_now(const std::vector<TableVersion>& inputs, const std::vector<TableVersion>& now, double max_drift) {
  for (const auto& then : inputs) {
    auto it = std::find_if(now.begin(), now.end(), [&](const TableVersion& t) { return t.name == then.name; });
    if (it == now.end()) return false;
    if (it->data_version == then.data_version) continue;
    const double a = static_cast<double>(it->rows), b = static_cast<double>(then.rows);
    if (std::abs(a - b) / std::max(b, 1.0) > max_drift) return false;
  }
  return true;
}

}  // namespace hindsight::stats
