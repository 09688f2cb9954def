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
  if (auto o = find(KeyKind::Exact, keys.exact)) return RowEstimate{*o, EstimateSource::Runtime};
  if (keys.join_set)
    if (auto o = find(KeyKind::JoinSet, *keys.join_set)) return RowEstimate{*o, EstimateSource::JoinSet};
  if (auto o = find(KeyKind::Template, keys.templ)) return RowEstimate{*o, EstimateSource::Template};
  return std::nullopt;
}

}  // namespace hindsight::stats
