#include "planner/optimizer/stats/statistics_cache.hpp"

#include <cctype>
#include <iostream>
#include <set>

#include "planner/optimizer/stats/statistics_file.hpp"

namespace hindsight {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Prints `message` on stderr unless a warning with the same key was printed before in this process.
void warn_once(const std::string& key, const std::string& message) {
  static std::mutex mu;
  static std::set<std::string> warned;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!warned.insert(key).second) return;
  }
  std::cerr << "hindsight: warning: " << message << "\n";
}

/// True when `stats` were computed from `table` as it is now: same name, data version, rows and columns.
bool describes(const TableStatistics& stats, const Table& table) {
  if (lower(stats.table) != lower(table.def.name) || is_stale(stats, table)) return false;
  if (stats.columns.size() != table.def.columns.size()) return false;
  for (size_t c = 0; c < stats.columns.size(); ++c) {
    const ColumnStatistics& cs = stats.columns[c];
    if (cs.name != table.def.columns[c].name || !(cs.type == table.def.columns[c].type) ||
        cs.rows != table.row_count)
      return false;
  }
  return true;
}

}  // namespace

StatisticsCache::StatisticsCache(std::string directory) : directory_(std::move(directory)) {
  remove_dead_statistics_temp_files(directory_);
}

std::shared_ptr<StatisticsCache::Slot> StatisticsCache::slot_for(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& entry = slots_[lower(name)];
  if (!entry) entry = std::make_shared<Slot>();
  return entry;
}

namespace {
/// Only columnar tables hold the buckets analyze_table reads. Another connector's table (e.g. SQLite) gets no
/// statistics rather than "0 rows": the cardinality model then uses fixed selectivities over its row count.
bool analyzable(const Table& table) { return table.def.connector == "columnar"; }
}  // namespace

std::shared_ptr<const TableStatistics> StatisticsCache::get(const Table& table, LoadGuard* guard) {
  if (!analyzable(table)) return nullptr;
  std::shared_ptr<Slot> slot = slot_for(table.def.name);
  // The slot lock serializes analyses of one table without blocking lookups of the others.
  std::lock_guard<std::mutex> lock(slot->mu);
  return current(*slot, table, guard);
}

std::shared_ptr<const TableStatistics> StatisticsCache::current(Slot& slot, const Table& table, LoadGuard* guard) {
  if (slot.stats && !is_stale(*slot.stats, table)) return slot.stats;
  if (auto loaded = load(table)) return slot.stats = std::move(loaded);
  return slot.stats = analyze(table, guard);
}

std::optional<double> StatisticsCache::column_set_distinct(const Table& table, const std::vector<std::string>& names,
                                                           LoadGuard* guard) {
  if (!analyzable(table)) return std::nullopt;
  std::shared_ptr<Slot> slot = slot_for(table.def.name);
  std::lock_guard<std::mutex> lock(slot->mu);
  std::shared_ptr<const TableStatistics> stats = current(*slot, table, guard);
  if (const ColumnSetStatistics* known = stats->column_set(names)) return known->distinct;
  for (const std::string& name : names)
    if (!stats->column(name)) return std::nullopt;
  // Statistics handed out stay as they are: the set goes into a copy that replaces them.
  auto next = std::make_shared<TableStatistics>(*stats);
  next->column_sets.push_back(compute_column_set_statistics(table, *stats, names, guard));
  const double distinct = next->column_sets.back().distinct;
  persist(*next);
  slot->stats = std::move(next);
  return distinct;
}

std::shared_ptr<const TableStatistics> StatisticsCache::refresh(const Table& table, LoadGuard* guard) {
  if (!analyzable(table)) return nullptr;
  std::shared_ptr<Slot> slot = slot_for(table.def.name);
  std::lock_guard<std::mutex> lock(slot->mu);
  return slot->stats = analyze(table, guard);
}

std::shared_ptr<const TableStatistics> StatisticsCache::load(const Table& table) {
  if (directory_.empty()) return nullptr;
  const std::string path = statistics_file_path(directory_, table.def.name);
  StatisticsFileRead read = read_statistics_file(path);
  if (!read.stats) {
    if (!read.problem.empty())
      warn_once(path, "ignoring statistics file '" + path + "': " + read.problem + "; analyzing table '" +
                          table.def.name + "' again");
    return nullptr;
  }
  if (!describes(*read.stats, table)) return nullptr;  // stale: the data (or schema) changed since
  {
    std::lock_guard<std::mutex> count_lock(mu_);
    ++loads_;
  }
  return std::make_shared<const TableStatistics>(std::move(*read.stats));
}

std::shared_ptr<const TableStatistics> StatisticsCache::analyze(const Table& table, LoadGuard* guard) {
  auto stats = std::make_shared<const TableStatistics>(analyze_table(table, guard));
  {
    std::lock_guard<std::mutex> count_lock(mu_);
    ++analyses_;
  }
  persist(*stats);
  return stats;
}

void StatisticsCache::persist(const TableStatistics& stats) {
  if (directory_.empty()) return;
  const std::string path = statistics_file_path(directory_, stats.table);
  std::string problem;
  if (!write_statistics_file(path, stats, problem))
    warn_once("write:" + directory_, "cannot persist table statistics: " + problem +
                                         " (they will be computed again by the next process)");
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

uint64_t StatisticsCache::loads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return loads_;
}

}  // namespace hindsight
