#include "planner/catalog/catalog_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "planner/common/error.hpp"

namespace hindsight {

using nlohmann::json;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Byte offset (0-based) -> 1-based line and column.
SourcePos position_of(const std::string& text, size_t offset, const std::string& path) {
  if (offset > text.size()) offset = text.size();
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return SourcePos{path, line, static_cast<int>(offset - line_start) + 1};
}

/// Reports semantic problems: the catalog has no per-value positions, so the message names the file, the table
/// and the field.
class Checker {
 public:
  explicit Checker(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(ErrorCode::DATA_ERROR, fmt::format("{}: {}: {}", path_, where, what));
  }
  const json& field(const json& obj, const char* name, json::value_t type, const std::string& where) const {
    auto it = obj.find(name);
    if (it == obj.end()) fail(where, fmt::format("missing field '{}'", name));
    bool ok = it->type() == type || (type == json::value_t::number_integer && it->is_number_unsigned());
    if (!ok) fail(where, fmt::format("field '{}' must be {}", name, type_word(type)));
    return *it;
  }
  const json* optional(const json& obj, const char* name, json::value_t type, const std::string& where) const {
    auto it = obj.find(name);
    if (it == obj.end() || it->is_null()) return nullptr;
    return &field(obj, name, type, where);
  }

 private:
  static const char* type_word(json::value_t t) {
    switch (t) {
      case json::value_t::string:
        return "a string";
      case json::value_t::array:
        return "an array";
      case json::value_t::object:
        return "an object";
      case json::value_t::boolean:
        return "true or false";
      case json::value_t::number_integer:
        return "an integer";
      default:
        return "of another type";
    }
  }
  std::string path_;
};

ColumnDef parse_column(const Checker& check, const json& j, const std::string& where) {
  if (!j.is_object()) check.fail(where, "must be an object");
  ColumnDef col;
  col.name = check.field(j, "name", json::value_t::string, where).get<std::string>();
  if (col.name.empty()) check.fail(where, "empty column name");
  std::string where_named = fmt::format("{} ('{}')", where, col.name);
  auto type_name = check.field(j, "type", json::value_t::string, where_named).get<std::string>();
  if (!parse_type_name(type_name, col.type)) check.fail(where_named, fmt::format("unknown type '{}'", type_name));
  if (auto* n = check.optional(j, "nullable", json::value_t::boolean, where_named)) col.nullable = n->get<bool>();
  return col;
}

/// "colocation": [{"mapping": id, "columns": [...]}, ...] inside a hash distribution. Shape errors
/// fail the load; a mapping that cannot be honoured (unknown column, not a hash table) is dropped
/// with a warning so it is never misused.
void parse_colocation(const Checker& check, const json& list, TableDef& t, const std::string& dwhere,
                      std::vector<std::string>& warnings) {
  for (size_t i = 0; i < list.size(); ++i) {
    std::string mwhere = fmt::format("{} colocation {}", dwhere, i + 1);
    const json& m = list[i];
    if (!m.is_object()) check.fail(mwhere, "must be an object");
    ColocationMapping mapping;
    mapping.id = check.field(m, "mapping", json::value_t::string, mwhere).get<std::string>();
    if (mapping.id.empty()) check.fail(mwhere, "empty mapping id");
    // The planner names columns equal to a stream's hash key "=key" (an inner join's other side): ids starting
    // with '=' are its own.
    if (mapping.id[0] == '=') check.fail(mwhere, fmt::format("mapping id '{}': ids starting with '=' are reserved", mapping.id));
    const json& cols = check.field(m, "columns", json::value_t::array, mwhere);
    if (cols.empty()) check.fail(mwhere, "a mapping needs at least one column");
    std::string missing;
    for (const auto& c : cols) {
      if (!c.is_string()) check.fail(mwhere, "columns must be strings");
      auto name = c.get<std::string>();
      int idx = t.column_index(name);
      if (idx < 0) missing += (missing.empty() ? "" : ", ") + name;
      else mapping.columns.push_back(t.columns[static_cast<size_t>(idx)].name);
    }
    if (!missing.empty()) {
      warnings.push_back(fmt::format("table '{}': co-location mapping '{}' ignored: no column {}", t.name, mapping.id, missing));
      continue;
    }
    if (t.distribution != DistributionKind::Hash) {
      warnings.push_back(fmt::format("table '{}': co-location mapping '{}' ignored: the table is not hash-distributed",
                                     t.name, mapping.id));
      continue;
    }
    t.colocation.push_back(std::move(mapping));
  }
}

void parse_distribution(const Checker& check, const json& j, TableDef& t, const std::string& where,
                        std::vector<std::string>& warnings) {
  std::string dwhere = where + " distribution";
  if (!j.is_object()) check.fail(dwhere, "must be an object");
  auto kind = lower(check.field(j, "kind", json::value_t::string, dwhere).get<std::string>());
  if (kind == "hash")
    t.distribution = DistributionKind::Hash;
  else if (kind == "replicated")
    t.distribution = DistributionKind::Replicated;
  else if (kind == "random")
    t.distribution = DistributionKind::Random;
  else
    check.fail(dwhere, fmt::format("unknown kind '{}' (expected hash, replicated or random)", kind));

  t.buckets = 1;
  if (auto* b = check.optional(j, "buckets", json::value_t::number_integer, dwhere)) {
    // Reported as written: a count beyond int64 (or one clamped for printing) would name another number.
    const std::string written = b->dump();
    const bool in_range = b->is_number_unsigned()
                              ? b->get<uint64_t>() >= 1 && b->get<uint64_t>() <= static_cast<uint64_t>(kMaxBuckets)
                              : b->get<int64_t>() >= 1 && b->get<int64_t>() <= kMaxBuckets;
    if (!in_range) check.fail(dwhere, fmt::format("buckets must be between 1 and {}, got {}", kMaxBuckets, written));
    t.buckets = static_cast<int>(b->get<int64_t>());
  }
  if (t.distribution == DistributionKind::Replicated) t.buckets = 1;

  if (t.distribution == DistributionKind::Hash) {
    const json& cols = check.field(j, "columns", json::value_t::array, dwhere);
    if (cols.empty()) check.fail(dwhere, "hash distribution needs at least one column");
    for (const auto& c : cols) {
      if (!c.is_string()) check.fail(dwhere, "columns must be strings");
      auto name = c.get<std::string>();
      int idx = t.column_index(name);
      if (idx < 0) check.fail(dwhere, fmt::format("hash column '{}' is not a column of the table", name));
      t.distribution_columns.push_back(t.columns[static_cast<size_t>(idx)].name);
    }
  } else if (auto* cols = check.optional(j, "columns", json::value_t::array, dwhere); cols && !cols->empty()) {
    check.fail(dwhere, fmt::format("columns are only allowed for hash distribution, not '{}'", kind));
  }
  if (auto* m = check.optional(j, "colocation", json::value_t::array, dwhere)) parse_colocation(check, *m, t, dwhere, warnings);
}

/// Where a table's rows come from: "file" (a CSV read by the default "columnar" connector) or another connector
/// with its own object, e.g. "connector": "sqlite", "sqlite": {"file": "suppliers.db", "table": "supplier"}
/// (file relative to the catalog's folder). The connector names are those of planner/storage/connector's registry; a
/// connector table has no distribution (it is read by one worker). The SQLite file, table and columns are
/// checked when the table is first used (planner/storage/connector/sqlite_table.cpp).
void parse_source(const Checker& check, const json& j, TableDef& t, const std::string& where) {
  std::string connector = "columnar";
  if (auto* c = check.optional(j, "connector", json::value_t::string, where)) connector = lower(c->get<std::string>());
  if (connector == "columnar") {
    t.file = check.field(j, "file", json::value_t::string, where).get<std::string>();
    if (t.file.empty()) check.fail(where, "empty file name");
    return;
  }
  if (connector != "sqlite")
    check.fail(where + " connector", fmt::format("unknown connector '{}' (expected columnar or sqlite)", connector));
  t.connector = connector;
  if (j.contains("file"))
    check.fail(where + " file", fmt::format("not used by connector '{0}' (give the file as '{0}.file')", connector));
  if (auto it = j.find("distribution"); it != j.end() && !it->is_null())
    check.fail(where + " distribution",
               fmt::format("not allowed for connector '{}': its tables are read by one worker", connector));
  const json& opts = check.field(j, connector.c_str(), json::value_t::object, where);
  const std::string owhere = where + " " + connector;
  for (const auto& [key, value] : opts.items()) {
    if (key != "file" && key != "table") check.fail(owhere + "." + key, "unknown field (expected file and table)");
    if (!value.is_string()) check.fail(owhere + "." + key, "must be a string");
    if (value.get<std::string>().empty()) check.fail(owhere + "." + key, "must not be empty");
  }
  t.file = check.field(opts, "file", json::value_t::string, owhere).get<std::string>();
  t.connector_options["table"] = check.field(opts, "table", json::value_t::string, owhere).get<std::string>();
}

TableDef parse_table(const Checker& check, const json& j, size_t index, std::vector<std::string>& warnings) {
  std::string where = fmt::format("table {}", index + 1);
  if (!j.is_object()) check.fail(where, "must be an object");
  TableDef t;
  t.name = check.field(j, "name", json::value_t::string, where).get<std::string>();
  if (t.name.empty()) check.fail(where, "empty table name");
  where = fmt::format("table '{}'", t.name);
  parse_source(check, j, t, where);
  const json& cols = check.field(j, "columns", json::value_t::array, where);
  if (cols.empty()) check.fail(where, "no columns");
  std::set<std::string> seen;
  for (size_t c = 0; c < cols.size(); ++c) {
    ColumnDef col = parse_column(check, cols[c], fmt::format("{} column {}", where, c + 1));
    if (!seen.insert(lower(col.name)).second)
      check.fail(fmt::format("{} column {}", where, c + 1), fmt::format("duplicate column name '{}'", col.name));
    t.columns.push_back(std::move(col));
  }
  t.distribution = DistributionKind::Random;
  t.buckets = 1;
  if (auto it = j.find("distribution"); it != j.end() && !it->is_null()) parse_distribution(check, *it, t, where, warnings);
  return t;
}

const char* kind_name(DistributionKind k) {
  switch (k) {
    case DistributionKind::Hash:
      return "hash";
    case DistributionKind::Replicated:
      return "replicated";
    case DistributionKind::Random:
      return "random";
  }
  return "random";
}

}  // namespace

Catalog parse_catalog(const std::string& text, const std::string& path, const std::string& folder) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann reports the 1-based byte index of the last character read.
    size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    if (auto p = what.find(": "); p != std::string::npos && what.find("parse error") != std::string::npos)
      what = what.substr(p + 2);
    throw Error(ErrorCode::DATA_ERROR, "malformed JSON: " + what, position_of(text, offset, path));
  } catch (const json::exception& e) {
    // A number too large for a double ("number overflow parsing '1e400'"): nlohmann gives no offset,
    // so point at the first occurrence of the token it quotes.
    std::string what = e.what();
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    size_t offset = 0;
    if (auto a = what.find('\''), b = what.rfind('\''); a != std::string::npos && b > a)
      if (auto at = text.find(what.substr(a + 1, b - a - 1)); at != std::string::npos) offset = at;
    throw Error(ErrorCode::DATA_ERROR, "malformed JSON: " + what, position_of(text, offset, path));
  }
  Checker check(path);
  if (!root.is_object()) check.fail("top level", "must be an object with a 'tables' array");
  const json& tables = check.field(root, "tables", json::value_t::array, "top level");
  Catalog cat;
  cat.folder = folder;
  std::set<std::string> names;
  for (size_t i = 0; i < tables.size(); ++i) {
    TableDef t = parse_table(check, tables[i], i, cat.warnings);
    if (!names.insert(lower(t.name)).second)
      check.fail(fmt::format("table {}", i + 1), fmt::format("duplicate table name '{}'", t.name));
    cat.tables.push_back(std::move(t));
  }
  return cat;
}

Catalog load_catalog(const std::string& data_dir) {
  std::string path = data_dir.empty() ? std::string("catalog.json") : data_dir + "/catalog.json";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::IO_ERROR, fmt::format("cannot read catalog '{}': no such file or not readable", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error(ErrorCode::IO_ERROR, fmt::format("error reading catalog '{}'", path));
  return parse_catalog(ss.str(), path, data_dir);
}

std::string catalog_to_json(const Catalog& catalog) {
  // ordered_json keeps the fields in the documented order, which reads better than sorted keys.
  using ojson = nlohmann::ordered_json;
  ojson tables = ojson::array();
  for (const auto& t : catalog.tables) {
    ojson cols = ojson::array();
    for (const auto& c : t.columns)
      cols.push_back(ojson{{"name", c.name}, {"type", c.type.to_string()}, {"nullable", c.nullable}});
    ojson dist{{"kind", kind_name(t.distribution)}};
    if (t.distribution == DistributionKind::Hash) dist["columns"] = t.distribution_columns;
    if (t.distribution != DistributionKind::Replicated) dist["buckets"] = t.buckets;
    if (!t.colocation.empty()) {
      ojson maps = ojson::array();
      for (const auto& m : t.colocation) maps.push_back(ojson{{"mapping", m.id}, {"columns", m.columns}});
      dist["colocation"] = maps;
    }
    if (t.connector != "columnar") {  // a connector table: its own object, no distribution
      ojson opts{{"file", t.file}};
      for (const auto& [k, v] : t.connector_options) opts[k] = v;
      tables.push_back(ojson{{"name", t.name}, {"connector", t.connector}, {t.connector, opts}, {"columns", cols}});
      continue;
    }
    tables.push_back(ojson{{"name", t.name}, {"file", t.file}, {"columns", cols}, {"distribution", dist}});
  }
  return ojson{{"tables", tables}}.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace hindsight
