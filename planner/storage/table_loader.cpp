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
  auto finish = [&](Table&& t) {
    li.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::make_shared<const Table>(std::move(t));
  };

  if (options.use_cache) {
    if (auto cached = read_table_cache(cache, def, li.stamp, options.guard)) {
      li.from_cache = true;
      return finish(std::move(*cached));
    }
  }
  Table t = read_csv_table(li.source_path, def, options.guard);
  // The reader's checks were a lower estimate; the cache reader's last check was already exact.
  if (options.guard) options.guard->check(def.name, static_cast<int64_t>(table_allocated_bytes(t)));
  t.data_version = data_version_of(li.stamp, def);
  // A file that changed while we read it must not be cached under the stamp taken before.
  FileStamp after;
  bool stable = stat_file(li.source_path, after) && after == li.stamp;
  if (options.write_cache && stable) {
    // Writers killed before they could clean up (SIGKILL, a crash) leave their temp files beside the cache:
    // swept by the next writer, not by every load.
    remove_dead_temp_files(std::filesystem::path(cache).parent_path().string(), ".hsc");
    li.cache_written = write_table_cache(cache, t, li.stamp);
  }
  return finish(std::move(t));
}

}  // namespace hindsight
