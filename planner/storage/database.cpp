#include "planner/storage/database.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "planner/catalog/catalog_json.hpp"
#include "planner/common/error.hpp"
#include "planner/storage/connector/connector.hpp"

namespace hindsight {

Database::Database(std::string data_dir, LoadOptions options) : catalog_(load_catalog(data_dir)), options_(options) {}

Database::Database(Catalog catalog, LoadOptions options) : catalog_(std::move(catalog)), options_(options) {}

Database::Slot& Database::slot_for(const TableDef& def) {
  std::string key = def.name;
  for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = slots_[key];
  if (!slot) slot = std::make_unique<Slot>();
  return *slot;
}

TablePtr Database::table(const std::string& name) {
  LoadInfo info;
  TablePtr t = table(name, info);
  t->load_all_columns();
  return t;
}

TablePtr Database::table(const std::string& name, LoadInfo& info, LoadGuard* guard) {
  const TableDef* def = catalog_.find(name);
  if (!def) throw Error(ErrorCode::BIND_ERROR, fmt::format("unknown table '{}'", name));
  Slot& slot = slot_for(*def);
  std::lock_guard<std::mutex> lock(slot.mu);
  info = LoadInfo{};
  info.source_path = table_source_path(catalog_.folder, *def);
  // The table's connector (planner/storage/connector) opens it: the columnar one loads the CSV or its cache.
  const Connector& connector = connector_for(*def);
  FileStamp now;
  if (!stat_file(info.source_path, now)) throw connector.missing_source(catalog_.folder, *def, errno);
  if (slot.table && slot.stamp == now) {
    info.stamp = now;
    return slot.table;
  }
  LoadOptions options = options_;
  options.guard = guard;
  TablePtr loaded = connector.open_table(catalog_.folder, *def, options, &info);  // throws: slot keeps the old table
  slot.table = loaded;
  slot.stamp = info.stamp;
  return loaded;
}

}  // namespace hindsight
