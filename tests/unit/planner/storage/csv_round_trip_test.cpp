// Property: whatever CsvBuffer::value_field writes (the writer behind `hindsight query --format csv`),
// read_csv_table reads back as the same values, NULL and '' kept apart, for every column type.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "planner/common/date.hpp"
#include "planner/storage/csv_reader.hpp"
#include "planner/storage/csv_writer.hpp"
#include "storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::TempDir;
using storage_test::write_file;

/// Text pieces that stress the dialect: separators, quotes, line breaks, edge spaces, multi-byte UTF-8 and
/// strings that merely look special.
const std::vector<std::string> kPieces = {
    "a",    "Z",    " ",   "\t", ",", "\"", "\n", "\r", "\r\n", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
    "NULL", "\"\"", "x y", "0",  ";"};

class RandomTables {
 public:
  explicit RandomTables(uint64_t seed) : rng_(seed) {}

  TableDef def(int index) {
    TableDef t;
    t.name = "t" + std::to_string(index);
    t.file = t.name + ".csv";
    t.distribution = DistributionKind::Replicated;  // one bucket: rows stay in file order
    int columns = chance(3) ? 1 : pick(2, 6);
    for (int c = 0; c < columns; ++c) {
      std::string name = "c" + std::to_string(c);
      if (chance(10)) name += ", \"odd\"";  // a header field that needs quoting
      t.columns.push_back({name, type(), !chance(4)});
    }
    return t;
  }

  /// Columns of `rows` random values for `def` (NULLs only in nullable columns).
  std::vector<ColumnVector> rows(const TableDef& def, int rows) {
    std::vector<ColumnVector> cols;
    int null_percent = pick(0, 60);
    for (const auto& cd : def.columns) {
      ColumnVector col(cd.type);
      for (int r = 0; r < rows; ++r) {
        if (cd.nullable && pick(0, 99) < null_percent) {
          col.append_null();
          continue;
        }
        switch (cd.type.physical()) {
          case PhysicalKind::Int64:
            col.append_int(int_value(cd.type));
            break;
          case PhysicalKind::Double:
            col.append_double(double_value());
            break;
          case PhysicalKind::String:
            col.append_string(text_value());
            break;
        }
      }
      cols.push_back(std::move(col));
    }
    return cols;
  }

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(int one_in) { return pick(1, one_in) == 1; }

 private:
  DataType type() {
    switch (pick(0, 6)) {
      case 0:
        return DataType::boolean();
      case 1:
        return DataType::integer();
      case 2:
        return DataType::bigint();
      case 3:
        return DataType::float64();
      case 4: {
        int p = pick(1, 18);
        return DataType::decimal(static_cast<uint8_t>(p), static_cast<uint8_t>(pick(0, p)));
      }
      case 5:
        return DataType::date();
      default:
        return DataType::varchar();
    }
  }

  int64_t between(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }

  int64_t int_value(const DataType& t) {
    switch (t.id) {
      case TypeId::Boolean:
        return pick(0, 1);
      case TypeId::Integer: {
        const int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
        return chance(5) ? (chance(2) ? lo : hi) : between(chance(2) ? -1000 : lo, chance(2) ? 1000 : hi);
      }
      case TypeId::BigInt: {
        const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
        return chance(5) ? (chance(2) ? lo : hi) : between(chance(2) ? -1000 : lo, chance(2) ? 1000 : hi);
      }
      case TypeId::Decimal: {
        const int64_t limit = pow10_i64(t.precision) - 1;  // every digit of the precision used
        return chance(5) ? (chance(2) ? -limit : limit) : between(-limit, limit);
      }
      case TypeId::Date:  // the years DATE text can spell: 0000 through 9999
        return between(days_from_civil(0, 1, 1), days_from_civil(9999, 12, 31));
      default:
        return 0;
    }
  }

  double double_value() {
    switch (pick(0, 5)) {
      case 0:
        return std::bit_cast<double>(between(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()));
      case 1:
        return static_cast<double>(between(-1000000, 1000000)) / 8;
      case 2:
        return std::uniform_real_distribution<double>(-1e20, 1e20)(rng_);
      case 3:
        return chance(2) ? -0.0 : 0.0;
      case 4: {
        const double special[] = {std::numeric_limits<double>::quiet_NaN(),
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::denorm_min(),
                                  std::numeric_limits<double>::max(),
                                  std::numeric_limits<double>::lowest(),
                                  1e15,
                                  -1e15,
                                  999999999999999.0};
        return special[pick(0, 8)];
      }
      default:
        return std::ldexp(static_cast<double>(between(-(int64_t{1} << 53), int64_t{1} << 53)), pick(-1074, 960));
    }
  }

  std::string text_value() {
    std::string s;
    int n = chance(4) ? 0 : pick(1, 8);
    for (int i = 0; i < n; ++i) s += kPieces[static_cast<size_t>(pick(0, static_cast<int>(kPieces.size()) - 1))];
    return s;
  }

  std::mt19937_64 rng_;
};

std::string write_csv(const TableDef& def, const std::vector<ColumnVector>& cols, size_t rows) {
  CsvBuffer out;
  for (const auto& c : def.columns) out.text_field(c.name);
  out.end_row();
  for (size_t r = 0; r < rows; ++r) {
    for (const auto& col : cols) out.value_field(col, r);
    out.end_row();
  }
  return out.data();
}

std::string shown(const ColumnVector& col, size_t r) {
  if (col.is_null(r)) return "NULL";
  if (col.type.physical() == PhysicalKind::Double)
    return fmt::format("{} (bits {:016x})", col.dbls[r], std::bit_cast<uint64_t>(col.dbls[r]));
  return col.get(r).to_sql();
}

bool same_value(const ColumnVector& a, const ColumnVector& b, size_t r) {
  if (a.is_null(r) || b.is_null(r)) return a.is_null(r) == b.is_null(r);
  switch (a.type.physical()) {
    case PhysicalKind::Int64:
      return a.ints[r] == b.ints[r];
    case PhysicalKind::Double:  // bit for bit (so -0.0 keeps its sign); any NaN reads back as a NaN
      return std::bit_cast<uint64_t>(a.dbls[r]) == std::bit_cast<uint64_t>(b.dbls[r]) ||
             (std::isnan(a.dbls[r]) && std::isnan(b.dbls[r]));
    case PhysicalKind::String:
      return a.strs[r] == b.strs[r];
  }
  return false;
}

TEST(CsvRoundTripTest, RandomTablesReadBackAsWritten) {
  RandomTables gen(20240611);
  TempDir dir;
  int one_column = 0, blank_lines = 0, empty_strings = 0;
  for (int i = 0; i < 400; ++i) {
    TableDef def = gen.def(i);
    const int rows = gen.chance(10) ? 0 : gen.pick(1, 40);
    std::vector<ColumnVector> cols = gen.rows(def, rows);
    std::string text = write_csv(def, cols, static_cast<size_t>(rows));
    SCOPED_TRACE(fmt::format("table {} ({} columns, {} rows), CSV:\n{}", i, def.columns.size(), rows, text));
    write_file(dir.file(def.file), text);
    Table t;
    try {
      t = read_csv_table(dir.file(def.file), def);
    } catch (const Error& e) {
      ADD_FAILURE() << e.format();
      continue;
    }
    ASSERT_EQ(t.row_count, static_cast<uint64_t>(rows));
    ASSERT_EQ(t.buckets.size(), 1u);
    for (size_t c = 0; c < cols.size(); ++c) {
      const ColumnVector& got = t.buckets[0][c];
      ASSERT_EQ(got.size(), static_cast<size_t>(rows));
      for (size_t r = 0; r < static_cast<size_t>(rows); ++r) {
        ASSERT_TRUE(same_value(cols[c], got, r))
            << "column " << def.columns[c].name << " (" << def.columns[c].type.to_string() << ") row " << r
            << ": wrote " << shown(cols[c], r) << ", read " << shown(got, r);
        if (!cols[c].is_null(r) && cols[c].type.id == TypeId::Varchar && cols[c].strs[r].empty()) ++empty_strings;
      }
    }
    if (cols.size() == 1) {
      ++one_column;
      for (int r = 0; r < rows; ++r) blank_lines += cols[0].is_null(static_cast<size_t>(r));
    }
  }
  // The cases the property is about did occur.
  EXPECT_GT(one_column, 50);
  EXPECT_GT(blank_lines, 100);
  EXPECT_GT(empty_strings, 100);
}

}  // namespace
}  // namespace hindsight
