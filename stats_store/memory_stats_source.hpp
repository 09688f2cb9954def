#pragma once
// The answers of one snapshot, in memory: what every StatsRepository's snapshot() returns. Built once from
// aggregates (the staleness and signature-version filters are applied here, for every scope alike), then
// read-only and safe to share between threads.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "stats_store/signature_aggregate.hpp"
#include "stats_store/stats_source.hpp"

namespace hindsight::stats {

class MemoryStatsSource final : public StatsSource {
 public:
  std::optional<ObservedRows> find(KeyKind kind, const sig::Signature& key) const override;
  bool empty() const override { return answers_[0].empty() && answers_[1].empty() && answers_[2].empty(); }
  size_t size() const { return answers_[0].size() + answers_[1].size() + answers_[2].size(); }

  /// Collects aggregates for one snapshot(tables, max_drift).
  class Builder {
   public:
    Builder(std::vector<TableVersion> tables, double max_drift);
    /// Keeps `a` when it may answer now: current signature version, inputs all among the tables, not stale.
    void add(const SignatureAggregate& a);
    /// The source, plus at most one warning when aggregates of another signature version were skipped
    /// ("N observations of signature version V ignored").
    std::shared_ptr<const MemoryStatsSource> finish(std::vector<std::string>& warnings);

   private:
    std::vector<TableVersion> tables_;
    double max_drift_;
    std::shared_ptr<MemoryStatsSource> source_;
    std::map<uint32_t, uint64_t> ignored_by_version_;  // version -> observations
  };

 private:
  std::unordered_map<sig::Signature, ObservedRows> answers_[3];  // by KeyKind
};

}  // namespace hindsight::stats
