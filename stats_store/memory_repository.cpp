#include "stats_store/memory_repository.hpp"

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
