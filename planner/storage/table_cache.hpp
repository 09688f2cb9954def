#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "planner/catalog/table_def.hpp"
#include "planner/storage/load_guard.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

/// Identity of a source file's contents as far as the cache can tell without reading it. The modification time
/// alone can be restored after an edit (touch -r, cp -p, rsync -t); the inode change time cannot (every write and
/// every utimensat sets it to now), and the inode and device tell a replaced file from the original.
struct FileStamp {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  uint64_t inode = 0;
  uint64_t device = 0;
  bool operator==(const FileStamp& o) const {
    return size == o.size && mtime_ns == o.mtime_ns && ctime_ns == o.ctime_ns && inode == o.inode &&
           device == o.device;
  }
};

/// stat()s `path`; false if it does not exist or cannot be inspected.
bool stat_file(const std::string& path, FileStamp& out);

/// Canonical text of what a cache depends on in `def`: column names, types, nullability and the distribution.
std::string schema_fingerprint(const TableDef& def);

/// Table::data_version for a table loaded from a source file with `stamp` under `def`.
uint64_t data_version_of(const FileStamp& stamp, const TableDef& def);

/// Where the binary cache of `csv_path` lives: "<csv_path>.hsc".
std::string cache_path_for(const std::string& csv_path);

/// Format version of the .hsc files; bump it when the layout changes (old caches are then ignored).
/// 2: the source stamp includes ctime, inode and device.
constexpr uint32_t kTableCacheVersion = 2;

/// Reads a cache written by write_table_cache. Returns nullopt (never throws, never trusts) if the file is missing,
/// truncated, corrupt (checksum), of another format version, or was made from another source stamp or schema.
/// The table's data_version is set. `guard` (optional) is asked after each decoded column with the bytes the columns
/// decoded so far hold (allocated; the last call is the whole table's); what it throws (MEMORY_LIMIT_EXCEEDED, TIMEOUT) ends the read and propagates.
std::optional<Table> read_table_cache(const std::string& cache_path, const TableDef& def, const FileStamp& source,
                                      LoadGuard* guard = nullptr);

/// Writes `table` to `cache_path` atomically (a PendingTempFile in the same folder, fsync, rename). Returns false and
/// leaves nothing behind if it cannot (read-only folder, disk full...): the cache is an optimisation only.
bool write_table_cache(const std::string& cache_path, const Table& table, const FileStamp& source);

}  // namespace hindsight
