#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "planner/catalog/table_def.hpp"
#include "planner/storage/table.hpp"
#include "planner/storage/table_loader.hpp"

namespace hindsight {

/// The tables of one data folder (catalog.json + CSV files), loaded lazily and shared.
class Database {
 public:
  /// Reads `<data_dir>/catalog.json` (throws IO_ERROR / DATA_ERROR, see load_catalog).
  explicit Database(std::string data_dir, LoadOptions options = {});
  /// A database over an already-built catalog (its folder locates the files).
  explicit Database(Catalog catalog, LoadOptions options = {});

  const Catalog& catalog() const { return catalog_; }
  const std::string& data_dir() const { return catalog_.folder; }

  /// The table `name` (case-insensitive). Opens it on first use (the binary cache's header, or the whole CSV) and reopens it when
  /// its file changed (size, mtime, ctime or inode; see FileStamp). Thread-safe; concurrent callers for one table wait for a single load.
  /// Throws BIND_ERROR for an unknown table, IO_ERROR / DATA_ERROR if loading fails; a failed load leaves the
  /// previously loaded data in place and the next call retries.
  TablePtr table(const std::string& name);

  /// table(name) with every column loaded (tools and tests that read the buckets directly; a statement loads
  /// only the columns it reads, through the scans it plans).
  ///
  /// Like table(), also reporting what the load did (from_cache false and seconds 0 if already loaded).
  /// A load it has to do runs under `guard` (the limits of the statement asking; a table already loaded is
  /// shared and not charged again).
  TablePtr table(const std::string& name, LoadInfo& info, LoadGuard* guard = nullptr);

 private:
  struct Slot {
    std::mutex mu;
    TablePtr table;
    FileStamp stamp;
  };
  Slot& slot_for(const TableDef& def);

  Catalog catalog_;
  LoadOptions options_;
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<Slot>> slots_;  ///< by lower-cased table name
};

}  // namespace hindsight
