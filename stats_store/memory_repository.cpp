#include "stats_store/memory_repository.hpp"

#include <algorithm>
#include <utility>

namespace hindsight::stats {

std::shared_ptr<const StatsSource> MemoryStatsRepository::snapshot(const std::vector<TableVersion>& tables,
                                                                   double max_drift) {
  MemoryStatsSource::Builder builder(tables, max_drift);
  std::lock_guard lock(mu_);
  for (const auto& a : lru_) builder.add(a);
  return builder.finish(warnings_);
}

void MemoryStatsRepository::record(const AttemptStats& attempt) {
  const int64_t seen_ms = attempt.started_unix_ms ? attempt.started_unix_ms : unix_now_ms();
  std::lock_guard lock(mu_);
  for (const auto& s : attempt.stats) {
    Key key{s.kind, s.signature};
    auto it = index_.find(key);
    if (it == index_.end()) {
      lru_.emplace_front();
      it = index_.emplace(key, lru_.begin()).first;
    } else if (it->second != lru_.begin()) {
      lru_.splice(lru_.begin(), lru_, it->second);
    }
    it->second->fold(s, s.lower_bound, seen_ms,
                     input_versions(s.input_tables, attempt.tables));
  }
  while (capacity_ > 0 && lru_.size() > capacity_) {
    const auto& victim = lru_.back();
    index_.erase(Key{victim.kind, victim.signature});
    lru_.pop_back();
  }
}

std::vector<std::string> MemoryStatsRepository::take_warnings() {
  std::lock_guard lock(mu_);
  return std::exchange(warnings_, {});
}

void MemoryStatsRepository::record_plan_run(const PlanRun& run) {
  std::lock_guard lock(mu_);
  fold_plan_run(plans_[run.template_signature], run);
  if (capacity_ > 0 && plans_.size() > capacity_) {
    // Drop the template run least recently (rare: as many templates as the scope holds signatures).
    auto oldest = plans_.end();
    int64_t oldest_ms = 0;
    for (auto it = plans_.begin(); it != plans_.end(); ++it) {
      int64_t seen = 0;
      for (auto& p : it->second) seen = std::max(seen, p.last_seen_ms);
      if (it->first != run.template_signature && (oldest == plans_.end() || seen < oldest_ms)) {
        oldest = it;
        oldest_ms = seen;
      }
    }
    if (oldest != plans_.end()) plans_.erase(oldest);
  }
}

std::vector<PlanRecord> MemoryStatsRepository::plan_history(const std::string& template_signature) {
  std::lock_guard lock(mu_);
  auto it = plans_.find(template_signature);
  return it == plans_.end() ? std::vector<PlanRecord>{} : it->second;
}

size_t MemoryStatsRepository::size() const {
  std::lock_guard lock(mu_);
  return lru_.size();
}

std::optional<SignatureAggregate> MemoryStatsRepository::aggregate(StatsSource::KeyKind kind,
                                                                   const sig::Signature& s) const {
  std::lock_guard lock(mu_);
  auto it = index_.find(Key{kind, s});
  if (it == index_.end()) return std::nullopt;
  return *it->second;
}

}  // namespace hindsight::stats
