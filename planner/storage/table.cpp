#include "planner/storage/table.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"

namespace hindsight {

uint64_t Table::rows_in_bucket(size_t b) const {
  if (b < bucket_rows.size()) return bucket_rows[b];
  return b < buckets.size() && !buckets[b].empty() ? buckets[b][0].size() : 0;
}

void Table::load_columns(const std::vector<int>& columns, LoadGuard* guard) const {
  if (!pending_) return;
  std::lock_guard<std::mutex> lock(pending_->mu);
  for (int c : columns) {
    HS_ASSERT(c >= 0 && static_cast<size_t>(c) < def.columns.size(),
              fmt::format("column {} of table '{}' out of range", c, def.name));
    const auto column = static_cast<size_t>(c);
    if (pending_->loaded[column]) continue;
    std::vector<ColumnVector> parts = pending_->source->read_column(column, guard);
    HS_ASSERT(parts.size() == buckets.size(), fmt::format("column source of '{}' returned {} buckets, not {}",
                                                          def.name, parts.size(), buckets.size()));
    for (size_t b = 0; b < parts.size(); ++b) {
      HS_ASSERT(parts[b].size() == rows_in_bucket(b),
                fmt::format("column '{}' of '{}' has {} rows in bucket {}, not {}", def.columns[column].name,
                            def.name, parts[b].size(), b, rows_in_bucket(b)));
      buckets[b][column] = std::move(parts[b]);
    }
    pending_->loaded[column] = 1;
  }
}

void Table::load_all_columns(LoadGuard* guard) const {
  if (!pending_) return;
  std::vector<int> all(def.columns.size());
  for (size_t c = 0; c < all.size(); ++c) all[c] = static_cast<int>(c);
  load_columns(all, guard);
}

Table::ColumnParts Table::column_parts(size_t c, LoadGuard* guard) const {
  HS_ASSERT(c < def.columns.size(), fmt::format("column {} of table '{}' out of range", c, def.name));
  ColumnParts out;
  if (pending_) {
    std::lock_guard<std::mutex> lock(pending_->mu);
    if (!pending_->loaded[c]) {
      auto read = std::make_shared<std::vector<ColumnVector>>(pending_->source->read_column(c, guard));
      HS_ASSERT(read->size() == buckets.size(), fmt::format("column source of '{}' returned {} buckets, not {}",
                                                            def.name, read->size(), buckets.size()));
      for (const auto& part : *read) out.parts.push_back(&part);
      out.owner = std::move(read);
      return out;
    }
  }
  for (const auto& bucket : buckets)
    if (c < bucket.size()) out.parts.push_back(&bucket[c]);
  return out;
}

bool Table::column_loaded(size_t c) const {
  if (!pending_) return c < def.columns.size();
  std::lock_guard<std::mutex> lock(pending_->mu);
  return c < pending_->loaded.size() && pending_->loaded[c];
}

size_t Table::loaded_column_count() const {
  if (!pending_) return def.columns.size();
  std::lock_guard<std::mutex> lock(pending_->mu);
  size_t n = 0;
  for (uint8_t l : pending_->loaded) n += l;
  return n;
}

void Table::set_column_source(std::shared_ptr<ColumnSource> source) {
  HS_ASSERT(bucket_rows.size() == buckets.size(), "a table loading on demand needs its rows per bucket");
  for (auto& bucket : buckets) {
    bucket.clear();
    for (const auto& c : def.columns) bucket.emplace_back(c.type);
  }
  pending_ = std::make_unique<Pending>();
  pending_->source = std::move(source);
  pending_->loaded.assign(def.columns.size(), 0);
}

}  // namespace hindsight
