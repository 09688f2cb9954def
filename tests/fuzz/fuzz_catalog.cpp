// libFuzzer target: catalog.json parsing and validation (planner/catalog/catalog_json.*).
//
// A hindsight::Error is the expected outcome of a bad catalog. Findings: a crash, a sanitizer report, any
// other exception, a hang, or an accepted catalog that breaks what load_catalog promises:
//  - table names unique, column names unique within a table (case-insensitively, as find() compares), types
//    known, buckets in [1, kMaxBuckets], replicated tables with 1 bucket, hash columns naming columns;
//  - catalog_to_json's text parses back to a catalog that prints the same (the writer and reader agree).
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "planner/catalog/catalog_json.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace hindsight;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void check_invariants(const Catalog& c) {
  std::set<std::string> tables;
  for (const TableDef& t : c.tables) {
    if (t.name.empty()) fuzz::finding("empty table name accepted");
    if (!tables.insert(lower(t.name)).second) fuzz::finding("duplicate table name accepted: " + t.name);
    if (c.find(t.name) != &t) fuzz::finding("find() does not return table " + t.name);
    if (t.columns.empty()) fuzz::finding("table without columns accepted: " + t.name);
    std::set<std::string> cols;
    for (const ColumnDef& col : t.columns) {
      if (!cols.insert(lower(col.name)).second) fuzz::finding("duplicate column name accepted: " + col.name);
      if (col.type.id == TypeId::Null) fuzz::finding("column of type NULL accepted: " + col.name);
    }
    if (t.buckets < 1 || t.buckets > kMaxBuckets) fuzz::finding("bucket count out of range accepted");
    if (t.distribution == DistributionKind::Replicated && t.buckets != 1)
      fuzz::finding("replicated table with " + std::to_string(t.buckets) + " buckets");
    if (t.distribution == DistributionKind::Hash && t.distribution_columns.empty())
      fuzz::finding("hash table without distribution columns: " + t.name);
    if (t.distribution != DistributionKind::Hash && !t.distribution_columns.empty())
      fuzz::finding("distribution columns on a table that is not hashed: " + t.name);
    for (const auto& k : t.distribution_columns)
      if (t.column_index(k) < 0) fuzz::finding("hash column '" + k + "' is not a column of " + t.name);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Catalog catalog;
  bool parsed = false;
  fuzz::expect_only_hindsight_errors("parse_catalog", [&] {
    catalog = parse_catalog(text, "fuzz/catalog.json", "fuzz");
    parsed = true;
  });
  if (!parsed) return 0;
  check_invariants(catalog);
  std::string printed;
  fuzz::expect_only_hindsight_errors("catalog_to_json", [&] { printed = catalog_to_json(catalog); });
  try {
    Catalog again = parse_catalog(printed, "printed/catalog.json", "fuzz");
    check_invariants(again);
    if (catalog_to_json(again) != printed)
      fuzz::finding("catalog_to_json text reads back as another catalog:\n" + printed + "\n---\n" +
                    catalog_to_json(again));
  } catch (const Error& e) {
    fuzz::finding("catalog_to_json wrote a catalog that does not load: " + e.format() + "\n" + printed);
  }
  return 0;
}
