#include "stats_store/stats_source.hpp"

namespace hindsight::stats {

const char* estimate_source_name(EstimateSource s) {
  switch (s) {
    case EstimateSource::Model: return "model";
    case EstimateSource::Runtime: return "runtime";
    case EstimateSource::JoinSet: return "join_set";
    case EstimateSource::Template: return "template";
    case EstimateSource::Oracle: return "oracle";
  }
  return "model";
}

std::optional<RowEstimate> StatsSource::lookup(const SignatureKeys& keys) const {
  if (empty()) return std::nullopt;
  // The first exact count in rank order answers, raised to any lower bound a better-ranked key knew;
  // with lower bounds only, the largest.
  std::optional<RowEstimate> bound;
  auto consider = [&](std::optional<ObservedRows> o, EstimateSource source) -> std::optional<RowEstimate> {
    if (!o) return std::nullopt;
    if (o->lower_bound) {
      if (!bound || o->rows > bound->observed.rows) bound = RowEstimate{*o, source};
      return std::nullopt;
    }
    if (bound && bound->observed.rows > o->rows) o->rows = bound->observed.rows;
    return RowEstimate{*o, source};
  };
  if (auto e = consider(find(KeyKind::Exact, keys.exact), EstimateSource::Runtime)) return e;
  if (keys.join_set)
    if (auto e = consider(find(KeyKind::JoinSet, *keys.join_set), EstimateSource::JoinSet)) return e;
  if (auto e = consider(find(KeyKind::Template, keys.templ), EstimateSource::Template)) return e;
  return bound;
}

}  // namespace hindsight::stats
