#pragma once
// Several scopes answering as one (query, then process, then persistent), for the planner.
#include <memory>
#include <vector>

#include "stats_store/stats_source.hpp"

namespace hindsight::stats {

/// Asks its layers in order and combines their answers by the rank rule (RankedAnswer): the first
/// exact count, raised to a larger lower bound of an earlier layer; with lower bounds only, the
/// largest.
class LayeredStatsSource final : public StatsSource {
 public:
  void add(std::shared_ptr<const StatsSource> layer) {
    if (layer && !layer->empty()) layers_.push_back(std::move(layer));
  }
  std::optional<ObservedRows> find(KeyKind kind, const sig::Signature& key) const override {
    auto e = combine([&](const StatsSource& layer) -> std::optional<RowEstimate> {
      auto o = layer.find(kind, key);
      return o ? std::optional<RowEstimate>(RowEstimate{*o}) : std::nullopt;
    });
    return e ? std::optional<ObservedRows>(e->observed) : std::nullopt;
  }
  /// The same rule over the layers' own look-ups (which name their sources: an oracle says `oracle`).
  std::optional<RowEstimate> lookup(const SignatureKeys& keys) const override {
    return combine([&](const StatsSource& layer) { return layer.lookup(keys); });
  }
  bool empty() const override { return layers_.empty(); }

 private:
  template <class Ask>
  std::optional<RowEstimate> combine(Ask ask) const {
    RankedAnswer answer;
    for (const auto& layer : layers_)
      if (answer.offer(ask(*layer))) break;
    return answer.result();
  }
  std::vector<std::shared_ptr<const StatsSource>> layers_;
};

}  // namespace hindsight::stats
