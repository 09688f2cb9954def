#pragma once
// The in-memory stats scopes (DESIGN.md section 5): the query scope (unbounded, one attempt chain) and the
// process scope (bounded to N signatures, least recently recorded evicted first, shared by every query of
// the process: thread-safe). Same aggregation rules and snapshot answers as the SQLite store.
#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

#include "stats_store/memory_stats_source.hpp"
#include "stats_store/runtime_stats.hpp"
#include "stats_store/signature_aggregate.hpp"

namespace hindsight::stats {

/// The process scope's default bound (aggregates are a few hundred bytes each).
inline constexpr size_t kProcessScopeCapacity = 100000;

class MemoryStatsRepository final : public StatsRepository {
 public:
  /// `capacity`: the most (kind, signature) aggregates kept; 0 = unbounded.
  explicit MemoryStatsRepository(size_t capacity = 0) : capacity_(capacity) {}

  std::shared_ptr<const StatsSource> snapshot(const std::vector<TableVersion>& tables, double max_drift) override;
  void record(const AttemptStats& attempt) override;
  std::vector<std::string> take_warnings() override;
  void record_plan_run(const PlanRun& run) override;
  std::vector<PlanRecord> plan_history(const std::string& template_signature) override;

  size_t size() const;
  /// The aggregate of one key, if held (tests, inspection).
  std::optional<SignatureAggregate> aggregate(StatsSource::KeyKind kind, const sig::Signature& s) const;

 private:
  struct Key {
    StatsSource::KeyKind kind;
    sig::Signature signature;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const noexcept {
      return std::hash<sig::Signature>{}(k.signature) + static_cast<size_t>(k.kind);
    }
  };

  size_t capacity_;
  mutable std::mutex mu_;
  std::list<SignatureAggregate> lru_;  // most recently recorded first
  std::unordered_map<Key, std::list<SignatureAggregate>::iterator, KeyHash> index_;
  std::vector<std::string> warnings_;
  /// The regression guard's plans by template (bounded like the aggregates: capacity_ templates at most).
  std::unordered_map<std::string, std::vector<PlanRecord>> plans_;
};

}  // namespace hindsight::stats
