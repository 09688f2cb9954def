#pragma once
#include <cstdint>
#include <functional>
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

/// Format version of the .hsc files; bump it when the layout changes (old caches are then ignored and rewritten).
/// 2: the source stamp includes ctime, inode and device.
/// 3: column by column: a header with per-column block offsets and checksums, the columns read on demand.
constexpr uint32_t kTableCacheVersion = 3;

/// The whole table read from its source again (the CSV), for a cache whose column turns out corrupt after it was
/// opened. Throws like load_table.
using CacheFallback = std::function<Table()>;

/// Opens a cache written by write_table_cache: reads and checks its header only (magic, format version, source
/// stamp, schema fingerprint, the header's checksum, and that the column blocks it lists fill the file exactly), and
/// returns the table with its row counts and data_version set and no column loaded: Table::load_columns reads
/// them with pread, each block checked against its own checksum. Returns nullopt (never throws, never trusts) if
/// the file is missing, truncated, corrupt, of another format version, or was made from another source stamp or
/// schema; `problem` (optional) then says why when the file looked like a cache of this version but was damaged
/// (empty for a missing or merely stale cache).
/// A column found corrupt when it is read comes from `fallback` instead (with a warning on stderr), and so do the
/// columns read after it; without a fallback such a read throws IO_ERROR.
std::optional<Table> read_table_cache(const std::string& cache_path, const TableDef& def, const FileStamp& source,
                                      CacheFallback fallback = {}, std::string* problem = nullptr);

/// Writes `table` (every column is loaded first) to `cache_path` atomically (a PendingTempFile in the same folder,
/// fsync, rename). Returns false and leaves nothing behind if it cannot (read-only folder, disk full...): the cache is
/// an optimisation only.
bool write_table_cache(const std::string& cache_path, const Table& table, const FileStamp& source);

/// Prints "hindsight: warning: <message>" on stderr (a cache that cannot be trusted).
void warn_table_cache(const std::string& message);

}  // namespace hindsight
