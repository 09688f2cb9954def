#pragma once
// The regression guard's stats sources (docs/reexec.md): one that records every answer a planning
// gets, and one that gives exactly those answers again, so that a remembered plan can be planned
// again over the same data. Know signatures, never plan nodes.
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "stats_store/runtime_stats.hpp"

namespace hindsight::stats {

/// Answers as `inner` does and remembers each answer given (find() and lookup()).
class RecordingStatsSource final : public StatsSource {
 public:
  explicit RecordingStatsSource(std::shared_ptr<const StatsSource> inner) : inner_(std::move(inner)) {}
  std::optional<ObservedRows> find(KeyKind kind, const sig::Signature& key) const override;
  std::optional<RowEstimate> lookup(const SignatureKeys& keys) const override;
  bool empty() const override { return !inner_ || inner_->empty(); }
  /// Every answer given so far (one per key: the planner asks the same key the same way).
  std::vector<PlannedAnswer> answers() const;

 private:
  std::shared_ptr<const StatsSource> inner_;
  mutable std::mutex mu_;
  mutable std::map<std::pair<int, sig::Signature>, PlannedAnswer> answers_;
};

/// Gives the recorded answers, and nothing else (every other estimate comes from the model).
class ReplayStatsSource final : public StatsSource {
 public:
  explicit ReplayStatsSource(const std::vector<PlannedAnswer>& answers);
  std::optional<ObservedRows> find(KeyKind kind, const sig::Signature& key) const override;
  std::optional<RowEstimate> lookup(const SignatureKeys& keys) const override;
  bool empty() const override { return answers_.empty(); }

 private:
  std::map<std::pair<int, sig::Signature>, PlannedAnswer> answers_;
};

}  // namespace hindsight::stats
