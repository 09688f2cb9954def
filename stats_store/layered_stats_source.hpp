#pragma once
// Several scopes answering as one (query, then process, then persistent), for the planner.
#include <memory>
#include <vector>

#include "stats_store/stats_source.hpp"

namespace hindsight::stats {

/// Asks its layers in order: the first exact answer (not a lower bound) wins; when every answer is
/// a lower bound, the largest one is returned (a lower bound is never preferred to an exact count,
/// and the tightest bound is the largest).
class LayeredStatsSource final : public StatsSource {
 public:
  void add(std::shared_ptr<const StatsSource> layer) {
    if (layer && !layer->empty()) layers_.push_back(std::move(layer));
  }
  std::optional<ObservedRows> find(KeyKind kind, const sig::Signature& key) const override {
    std::optional<ObservedRows> bound;
    for (const auto& layer : layers_) {
      auto o = layer->find(kind, key);
      if (!o) continue;
      if (!o->lower_bound) return o;
      if (!bound || o->rows > bound->rows) bound = o;
    }
    return bound;
  }
  /// The same rule over the layers' own look-ups (which name their sources: an oracle says `oracle`).
  std::optional<RowEstimate> lookup(const SignatureKeys& keys) const override {
    std::optional<RowEstimate> bound;
    for (const auto& layer : layers_) {
      auto e = layer->lookup(keys);
      if (!e) continue;
      if (!e->observed.lower_bound) return e;
      if (!bound || e->observed.rows > bound->observed.rows) bound = e;
    }
    return bound;
  }
  bool empty() const override { return layers_.empty(); }

 private:
  std::vector<std::shared_ptr<const StatsSource>> layers_;
};

}  // namespace hindsight::stats
