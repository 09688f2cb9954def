#include "planner/storage/connector/connector.hpp"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <mutex>

#include "planner/storage/connector/columnar_connector.hpp"
#include "planner/storage/connector/sqlite_connector.hpp"

namespace hindsight {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Registry {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Connector>> by_name;
  Registry() {
    for (std::shared_ptr<const Connector> c :
         {std::shared_ptr<const Connector>(std::make_shared<ColumnarConnector>()),
          std::shared_ptr<const Connector>(std::make_shared<SqliteConnector>())})
      by_name[c->name()] = c;
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

std::string join_pushdowns(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out;
}

const Connector* find_connector(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.by_name.find(lower(name));
  return it == r.by_name.end() ? nullptr : it->second.get();
}

const Connector& connector_for(const TableDef& def) {
  if (const Connector* c = find_connector(def.connector)) return *c;
  throw Error(ErrorCode::BIND_ERROR, fmt::format("table '{}': unknown connector '{}'", def.name, def.connector));
}

void register_connector(std::shared_ptr<const Connector> connector) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.by_name[lower(connector->name())] = std::move(connector);
}

std::string catalog_path_of(const std::string& folder) {
  if (folder.empty()) return "catalog.json";
  return folder.back() == '/' ? folder + "catalog.json" : folder + "/catalog.json";
}

}  // namespace hindsight
