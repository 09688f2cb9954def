#include "planner/optimizer/stats/table_statistics_store.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "planner/optimizer/stats/statistics_file.hpp"

namespace hindsight {

StatisticsCache& statistics_cache(const Database& db) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<StatisticsCache>> caches;  // by absolute data folder; never freed
  std::string key = db.data_dir();
  if (!key.empty()) {
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(key, ec), ec);
    if (!ec) key = canonical.string();
  }
  std::lock_guard<std::mutex> lock(mu);
  auto& cache = caches[key];
  if (!cache) cache = std::make_unique<StatisticsCache>(statistics_directory(key));
  return *cache;
}

std::shared_ptr<const TableStatistics> table_statistics(const Database& db, const Table& table,
                                                        LoadGuard* guard) {
  return statistics_cache(db).get(table, guard);
}

std::optional<double> column_set_distinct(const Database& db, const Table& table, const std::vector<std::string>& names,
                                          LoadGuard* guard) {
  return statistics_cache(db).column_set_distinct(table, names, guard);
}

}  // namespace hindsight
