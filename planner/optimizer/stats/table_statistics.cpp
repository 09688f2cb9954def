#include "planner/optimizer/stats/table_statistics.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "planner/common/hashing.hpp"
#include "planner/optimizer/stats/hyperloglog.hpp"
#include "planner/optimizer/stats/row_sample.hpp"
#include "planner/storage/bucketing.hpp"

namespace hindsight {

namespace {

bool equals_ignore_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::vector<std::string> column_set_key(std::vector<std::string> names) {
  for (std::string& n : names)
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

const ColumnSetStatistics* TableStatistics::column_set(const std::vector<std::string>& names) const {
  const std::vector<std::string> key = column_set_key(names);
  for (const auto& s : column_sets)
    if (s.columns == key) return &s;
  return nullptr;
}

ColumnSetStatistics compute_column_set_statistics(const Table& table, const TableStatistics& stats,
                                                  const std::vector<std::string>& names, LoadGuard* guard) {
  ColumnSetStatistics out;
  out.columns = column_set_key(names);
  std::vector<Table::ColumnParts> columns;
  double product = 1;  // no more combinations than the product of the columns' distinct counts
  for (const std::string& name : out.columns) {
    size_t c = 0;
    while (c < stats.columns.size() && !equals_ignore_case(stats.columns[c].name, name)) ++c;
    if (c == stats.columns.size())
      throw std::out_of_range("table '" + table.def.name + "' has no column '" + name + "'");
    product *= std::max(1.0, stats.columns[c].distinct);
    columns.push_back(table.column_parts(c, guard));
  }
  HyperLogLog hll;
  uint64_t complete = 0;  // rows without a NULL in the set
  std::vector<uint64_t> hashes;
  std::vector<const ColumnVector*> keys(columns.size());
  const size_t buckets = columns.empty() ? 0 : columns[0].parts.size();
  for (size_t b = 0; b < buckets; ++b) {
    for (size_t k = 0; k < columns.size(); ++k) keys[k] = columns[k].parts[b];
    const size_t rows = keys[0]->size();
    row_hashes(keys, rows, hashes);  // the rows' hashes as hash repartitioning computes them
    for (size_t r = 0; r < rows; ++r) {
      if (std::any_of(keys.begin(), keys.end(), [r](const ColumnVector* cv) { return cv->is_null(r); })) continue;
      ++complete;
      hll.add_hash(hash_int64(static_cast<int64_t>(hashes[r])));  // hash_combine leaves the top bits poorly mixed
    }
  }
  out.distinct = std::min({std::round(hll.estimate()), static_cast<double>(complete), product});
  return out;
}

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
  const RowSample filter_sample = sample_rows(table, kFilterSampleRows, kFilterSampleSeed);
  if (filter_sample.sampled_rows > 0) stats.filter_sample.resize(column_count);
  auto analyze_column = [&](size_t c) {
    // A column the table has not loaded is read for the analysis alone and dropped after it.
    const Table::ColumnParts column = table.column_parts(c, guard);
    const ColumnDef& def = table.def.columns[c];
    stats.columns[c] = compute_column_statistics(def.name, def.type, column.parts, sample);
    if (stats.filter_sample.empty()) return;
    ColumnVector& kept = stats.filter_sample[c];
    kept = ColumnVector(def.type);
    for (size_t b = 0; b < column.parts.size(); ++b) {
      const ColumnVector& part = *column.parts[b];
      if (filter_sample.all) {
        for (size_t r = 0; r < part.size(); ++r) kept.append_value(part.get(r));
      } else if (b < filter_sample.rows.size()) {
        for (uint32_t r : filter_sample.rows[b]) kept.append_value(part.get(r));
      }
    }
  };

  // Columns are independent, so analyzing them in parallel keeps the result deterministic.
  const size_t threads = std::min<size_t>(column_count, std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 1 || table.row_count < 100'000) {
    for (size_t c = 0; c < column_count; ++c) analyze_column(c);
  } else {
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
  }
  // Long text (documents, blobs) would make the sample, and the .stats file, large: such a table keeps none.
  uint64_t text_bytes = 0;
  for (const ColumnVector& kept : stats.filter_sample)
    for (const std::string& s : kept.strs) text_bytes += s.size();
  if (text_bytes > kFilterSampleBytes) stats.filter_sample.clear();
  return stats;
}

bool is_stale(const TableStatistics& stats, const Table& table) {
  return stats.data_version != table.data_version || stats.row_count != table.row_count;
}

}  // namespace hindsight
