#include "planner/optimizer/stats/table_statistics.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <exception>
#include <mutex>
#include <thread>

#include "planner/optimizer/stats/row_sample.hpp"

namespace hindsight {

namespace {

bool equals_ignore_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const ColumnStatistics* TableStatistics::column(const std::string& name) const {
  for (const auto& c : columns) {
    if (equals_ignore_case(c.name, name)) return &c;
  }
  return nullptr;
}

TableStatistics analyze_table(const Table& table, LoadGuard* guard) {
  TableStatistics stats;
  stats.table = table.def.name;
  stats.row_count = table.row_count;
  stats.data_version = table.data_version;
  const size_t column_count = table.def.columns.size();
  stats.columns.resize(column_count);

  const RowSample sample = sample_rows(table, kStatisticsSampleRows, kStatisticsSampleSeed);
  auto analyze_column = [&](size_t c) {
    // A column the table has not loaded is read for the analysis alone and dropped after it.
    const Table::ColumnParts column = table.column_parts(c, guard);
    const ColumnDef& def = table.def.columns[c];
    stats.columns[c] = compute_column_statistics(def.name, def.type, column.parts, sample);
  };

  // Columns are independent, so analyzing them in parallel keeps the result deterministic.
  const size_t threads = std::min<size_t>(column_count, std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 1 || table.row_count < 100'000) {
    for (size_t c = 0; c < column_count; ++c) analyze_column(c);
    return stats;
  }
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mu;
  std::vector<std::thread> workers;
  for (size_t t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      for (size_t c = next++; c < column_count; c = next++) {
        try {
          analyze_column(c);
        } catch (...) {
          std::lock_guard<std::mutex> lock(failure_mu);
          if (!failure) failure = std::current_exception();
        }
      }
    });
  }
  for (auto& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
  return stats;
}

bool is_stale(const TableStatistics& stats, const Table& table) {
  return stats.data_version != table.data_version || stats.row_count != table.row_count;
}

}  // namespace hindsight
