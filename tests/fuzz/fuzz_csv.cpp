// libFuzzer target: the CSV reader. The bytes are a CSV file for a fixed table with a column of every type
// (some NOT NULL), hash-distributed on three columns (one of them DOUBLE) in 3 buckets.
//
// A hindsight::Error is the expected outcome of a bad file. Findings: a crash, a sanitizer report, any other
// exception, a hang, or a table that breaks an invariant once read:
//  - every column of a bucket has row_count's share of rows, null masks match, NOT NULL columns hold no NULL,
//    VARCHAR values are valid UTF-8;
//  - every row sits in the bucket that bucketing.hpp's rule gives its key values;
//  - writing the table back as CSV and reading it again gives the same table (values bit for bit);
//  - the binary cache (.hsc) of the table reads back as the same table.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "planner/storage/bucketing.hpp"
#include "planner/storage/csv_reader.hpp"
#include "planner/storage/csv_writer.hpp"
#include "planner/storage/table_cache.hpp"
#include "planner/common/text.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace hindsight;

namespace {

const TableDef& table_def() {
  static const TableDef def = [] {
    TableDef t;
    t.name = "f";
    t.file = "f.csv";
    t.columns = {{"b", DataType::boolean()},          {"i", DataType::integer(), false},
                 {"g", DataType::bigint()},           {"d", DataType::float64()},
                 {"m", DataType::decimal(18, 4)},     {"n", DataType::decimal(5, 2), false},
                 {"s", DataType::varchar()},          {"t", DataType::varchar(), false},
                 {"dt", DataType::date()}};
    t.distribution = DistributionKind::Hash;
    t.distribution_columns = {"g", "d", "s"};
    t.buckets = 3;
    return t;
  }();
  return def;
}

void write_file(const std::string& path, const char* data, size_t size) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(data, static_cast<std::streamsize>(size));
  if (!f) fuzz::finding("cannot write " + path);
}

void check_invariants(const Table& t) {
  const TableDef& def = table_def();
  if (t.buckets.size() != static_cast<size_t>(def.buckets)) fuzz::finding("wrong bucket count");
  uint64_t rows = 0;
  std::vector<uint64_t> hashes;
  for (size_t b = 0; b < t.buckets.size(); ++b) {
    const auto& cols = t.buckets[b];
    if (cols.size() != def.columns.size()) fuzz::finding("bucket with the wrong number of columns");
    const size_t n = cols[0].size();
    for (size_t c = 0; c < cols.size(); ++c) {
      const ColumnVector& col = cols[c];
      if (col.type != def.columns[c].type) fuzz::finding("column of the wrong type");
      if (col.size() != n) fuzz::finding("columns of one bucket differ in length");
      if (!col.nulls.empty() && col.nulls.size() != n) fuzz::finding("null mask of the wrong length");
      for (size_t r = 0; r < n; ++r) {
        if (col.is_null(r) && !def.columns[c].nullable) fuzz::finding("NULL in a NOT NULL column");
        if (col.type.physical() == PhysicalKind::String && !col.is_null(r) && !is_valid_utf8(col.strs[r]))
          fuzz::finding("invalid UTF-8 stored");
      }
    }
    std::vector<const ColumnVector*> keys;
    for (int k : distribution_column_indexes(def)) keys.push_back(&cols[static_cast<size_t>(k)]);
    row_hashes(keys, n, hashes);
    for (size_t r = 0; r < n; ++r)
      if (bucket_of(hashes[r], def.buckets) != static_cast<int>(b))
        fuzz::finding("row " + std::to_string(r) + " of bucket " + std::to_string(b) + " belongs to bucket " +
                      std::to_string(bucket_of(hashes[r], def.buckets)));
    rows += n;
  }
  if (rows != t.row_count) fuzz::finding("row_count does not match the buckets");
}

/// The table as CSV, the way the TPC-H generator writes values (shortest round-trip text for doubles).
std::string to_csv(const Table& t) {
  const TableDef& def = table_def();
  CsvBuffer out;
  std::string header;
  for (const auto& c : def.columns) header += (header.empty() ? "" : ",") + c.name;
  out.raw(header + "\n");
  for (const auto& cols : t.buckets) {
    for (size_t r = 0; r < cols[0].size(); ++r) {
      for (const ColumnVector& col : cols) {
        if (col.is_null(r)) {
          out.null_field();
          continue;
        }
        switch (col.type.id) {
          case TypeId::Boolean: out.plain_field(col.ints[r] ? "true" : "false"); break;
          case TypeId::Decimal: out.decimal_field(col.ints[r], col.type.scale); break;
          case TypeId::Date: out.date_field(col.ints[r]); break;
          case TypeId::Double: {
            char tmp[64];
            auto res = std::to_chars(tmp, tmp + sizeof tmp, col.dbls[r]);
            out.plain_field(std::string_view(tmp, static_cast<size_t>(res.ptr - tmp)));
            break;
          }
          case TypeId::Varchar: out.text_field(col.strs[r]); break;
          default: out.int_field(col.ints[r]); break;
        }
      }
      out.end_row();
    }
  }
  return out.data();
}

/// Equal row by row, bucket by bucket (rows in a bucket keep file order, so the order is the same).
void expect_same(const Table& a, const Table& b, const char* what) {
  if (a.row_count != b.row_count)
    fuzz::finding(std::string(what) + ": " + std::to_string(a.row_count) + " rows became " +
                  std::to_string(b.row_count));
  for (size_t bk = 0; bk < a.buckets.size(); ++bk)
    for (size_t c = 0; c < a.buckets[bk].size(); ++c) {
      const ColumnVector &x = a.buckets[bk][c], &y = b.buckets[bk][c];
      if (x.size() != y.size()) fuzz::finding(std::string(what) + ": bucket sizes differ");
      for (size_t r = 0; r < x.size(); ++r) {
        const std::string where = std::string(what) + ": bucket " + std::to_string(bk) + " column " +
                                  table_def().columns[c].name + " row " + std::to_string(r);
        if (x.is_null(r) != y.is_null(r)) fuzz::finding(where + ": NULL differs");
        if (x.is_null(r)) continue;
        switch (x.type.physical()) {
          case PhysicalKind::Int64:
            if (x.ints[r] != y.ints[r])
              fuzz::finding(where + ": " + std::to_string(x.ints[r]) + " became " + std::to_string(y.ints[r]));
            break;
          case PhysicalKind::Double:
            if (std::memcmp(&x.dbls[r], &y.dbls[r], sizeof(double)) != 0 &&
                !(std::isnan(x.dbls[r]) && std::isnan(y.dbls[r])))
              fuzz::finding(where + ": double changed");
            break;
          case PhysicalKind::String:
            if (x.strs[r] != y.strs[r]) fuzz::finding(where + ": '" + x.strs[r] + "' became '" + y.strs[r] + "'");
            break;
        }
      }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& dir = fuzz::scratch_dir("csv");
  const std::string path = dir + "/f.csv", again = dir + "/again.csv", cache = dir + "/f.csv.hsc";
  write_file(path, reinterpret_cast<const char*>(data), size);
  Table table;
  bool loaded = false;
  fuzz::expect_only_hindsight_errors("read_csv_table", [&] {
    table = read_csv_table(path, table_def());
    loaded = true;
  });
  if (!loaded) return 0;
  check_invariants(table);

  const std::string text = to_csv(table);
  write_file(again, text.data(), text.size());
  try {
    expect_same(table, read_csv_table(again, table_def()), "CSV written back and read again");
  } catch (const Error& e) {
    fuzz::finding("the table written back as CSV does not load: " + e.format());
  }

  FileStamp stamp{static_cast<uint64_t>(size), 1};
  if (!write_table_cache(cache, table, stamp)) fuzz::finding("cannot write the binary cache");
  auto cached = read_table_cache(cache, table_def(), stamp);
  if (!cached) fuzz::finding("the binary cache just written does not read back");
  fuzz::expect_only_hindsight_errors("Table::load_all_columns", [&] { cached->load_all_columns(); });
  expect_same(table, *cached, "binary cache round trip");
  return 0;
}
