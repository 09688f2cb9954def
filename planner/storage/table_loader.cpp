#include "planner/storage/table_loader.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <filesystem>

#include "planner/common/error.hpp"
#include "planner/storage/csv_reader.hpp"
#include "planner/storage/temp_files.hpp"

namespace hindsight {

std::string table_source_path(const std::string& folder, const TableDef& def) {
  if (def.file.empty() || def.file[0] == '/' || folder.empty()) return def.file;
  return folder.back() == '/' ? folder + def.file : folder + "/" + def.file;
}

size_t table_allocated_bytes(const Table& table) {
  size_t bytes = 0;
  for (const auto& bucket : table.buckets)
    for (const auto& column : bucket) bytes += column.allocated_bytes();
  return bytes;
}

namespace {

/// Parses the CSV of `def` whole (charging `guard`), then writes its cache when the file did not change meanwhile.
Table parse_and_cache(const std::string& source_path, const std::string& cache, const TableDef& def,
                      const FileStamp& stamp, bool write_cache, LoadGuard* guard, bool* cache_written) {
  Table t = read_csv_table(source_path, def, guard);
  // The reader's checks were a lower estimate.
  if (guard) guard->check(def.name, static_cast<int64_t>(table_allocated_bytes(t)));
  t.data_version = data_version_of(stamp, def);
  // A file that changed while we read it must not be cached under the stamp taken before.
  FileStamp after;
  bool stable = stat_file(source_path, after) && after == stamp;
  if (write_cache && stable) {
    // Writers killed before they could clean up (SIGKILL, a crash) leave their temp files beside the cache:
    // swept by the next writer, not by every load.
    remove_dead_temp_files(std::filesystem::path(cache).parent_path().string(), ".hsc");
    const bool written = write_table_cache(cache, t, stamp);
    if (cache_written) *cache_written = written;
  }
  return t;
}

}  // namespace

TablePtr load_table(const std::string& folder, const TableDef& def, const LoadOptions& options, LoadInfo* info) {
  auto t0 = std::chrono::steady_clock::now();
  LoadInfo local;
  LoadInfo& li = info ? *info : local;
  li = LoadInfo{};
  li.source_path = table_source_path(folder, def);
  if (!stat_file(li.source_path, li.stamp))
    throw Error(ErrorCode::IO_ERROR,
                fmt::format("cannot open '{}' (table '{}'): {}", li.source_path, def.name, std::strerror(errno)));
  std::string cache = cache_path_for(li.source_path);
  auto finish = [&](Table&& t) -> TablePtr {
    li.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::make_shared<Table>(std::move(t));
  };

  if (options.use_cache) {
    // A column of the cache found damaged when it is read comes from the CSV, read again whole (its cache
    // rewritten), as long as the CSV is still the file the cache was opened for.
    CacheFallback fallback = [source_path = li.source_path, cache, def, stamp = li.stamp,
                              write = options.write_cache]() {
      FileStamp now;
      if (!stat_file(source_path, now) || !(now == stamp))
        throw Error(ErrorCode::IO_ERROR,
                    fmt::format("'{}' (table '{}') changed while its binary cache was being read: run the "
                                "statement again",
                                source_path, def.name));
      return parse_and_cache(source_path, cache, def, stamp, write, nullptr, nullptr);
    };
    std::string problem;
    if (auto cached = read_table_cache(cache, def, li.stamp, std::move(fallback), &problem)) {
      li.from_cache = true;
      return finish(std::move(*cached));
    }
    if (!problem.empty())
      warn_table_cache(fmt::format("ignoring binary cache '{}' ({}); reading table '{}' from its CSV file", cache,
                                   problem, def.name));
  }
  return finish(parse_and_cache(li.source_path, cache, def, li.stamp, options.write_cache, options.guard,
                                &li.cache_written));
}

}  // namespace hindsight
