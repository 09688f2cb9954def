#include "planner/optimizer/stats/statistics_cache.hpp"

#include <cctype>

namespace hindsight {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::shared_ptr<const TableStatistics> StatisticsCache::get(const Table& table) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto& entry = slots_[lower(table.def.name)];
    if (!entry) entry = std::make_shared<Slot>();
    slot = entry;
  }
  // The slot lock serializes analyses of one table without blocking lookups of the others.
  std::lock_guard<std::mutex> lock(slot->mu);
  if (slot->stats && !is_stale(*slot->stats, table)) return slot->stats;
  slot->stats = std::make_shared<const TableStatistics>(analyze_table(table));
  {
    std::lock_guard<std::mutex> count_lock(mu_);
    ++analyses_;
  }
  return slot->stats;
}

std::shared_ptr<const TableStatistics> StatisticsCache::find(const std::string& name) const {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = slots_.find(lower(name));
    if (it == slots_.end()) return nullptr;
    slot = it->second;
  }
  std::lock_guard<std::mutex> lock(slot->mu);
  return slot->stats;
}

void StatisticsCache::invalidate(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  slots_.erase(lower(name));
}

void StatisticsCache::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  slots_.clear();
}

uint64_t StatisticsCache::analyses() const {
  std::lock_guard<std::mutex> lock(mu_);
  return analyses_;
}

}  // namespace hindsight
