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
  RankedAnswer answer;
  auto offer = [&](std::optional<ObservedRows> o, EstimateSource source) {
    return answer.offer(o ? std::optional<RowEstimate>(RowEstimate{*o, source}) : std::nullopt);
  };
  if (!offer(find(KeyKind::Exact, keys.exact), EstimateSource::Runtime) &&
      !(keys.join_set && offer(find(KeyKind::JoinSet, *keys.join_set), EstimateSource::JoinSet)))
    offer(find(KeyKind::Template, keys.templ), EstimateSource::Template);
  return answer.result();
}

}  // namespace hindsight::stats
