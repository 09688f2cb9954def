#pragma once
#include <memory>

#include "planner/optimizer/stats/statistics_cache.hpp"
#include "planner/storage/database.hpp"

namespace hindsight {

/// The process-wide statistics cache of `db`'s data folder (one per folder, shared by every Database opened on
/// it), persisting to statistics_directory(db.data_dir()) (memory only when the folder is empty).
StatisticsCache& statistics_cache(const Database& db);

/// The statistics of `table` of `db`, as the optimizer uses them: from memory, else from the table's statistics
/// file when it was written for the table's current data_version, else analyzed now and written for the next
/// process ("automatically on first load").
/// An analysis reads every column of the table (charged to `guard`, may be null; those not loaded are not
/// kept); a statistics file reads none.
std::shared_ptr<const TableStatistics> table_statistics(const Database& db, const Table& table,
                                                        LoadGuard* guard = nullptr);

/// The distinct combinations of columns `names` of `table` of `db` (StatisticsCache::column_set_distinct): computed
/// on first use, then kept with the table's statistics and in its statistics file.
std::optional<double> column_set_distinct(const Database& db, const Table& table, const std::vector<std::string>& names,
                                          LoadGuard* guard = nullptr);

}  // namespace hindsight
