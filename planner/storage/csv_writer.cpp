#include "planner/storage/csv_writer.hpp"

#include <array>

#include "planner/common/date.hpp"
#include "planner/common/types.hpp"
#include "planner/common/value.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

namespace {

/// Dates of the TPC-H range (and some margin) preformatted; others fall back to format_date.
struct DateTable {
  static constexpr int64_t kFirst = 7670;  // 1991-01-01
  static constexpr int64_t kCount = 3650;  // through 2000
  std::array<std::array<char, 10>, kCount> text{};
  DateTable() {
    for (int64_t i = 0; i < kCount; ++i) {
      std::string s = format_date(kFirst + i);
      std::copy(s.begin(), s.end(), text[static_cast<size_t>(i)].begin());
    }
  }
};

}  // namespace

void CsvBuffer::decimal_field(int64_t scaled, int scale) {
  uint64_t a = scaled < 0 ? 0 - static_cast<uint64_t>(scaled) : static_cast<uint64_t>(scaled);
  auto p = static_cast<uint64_t>(pow10_i64(scale));
  if (scaled < 0) data_ += '-';
  char tmp[24];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, a / p);
  data_.append(tmp, static_cast<size_t>(r.ptr - tmp));
  if (scale <= 0) {
    data_ += ',';
    return;
  }
  data_ += '.';
  uint64_t frac = a % p;
  char digits[20];
  for (int i = scale - 1; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  data_.append(digits, static_cast<size_t>(scale));
  data_ += ',';
}

void CsvBuffer::date_field(int64_t days) {
  static const DateTable table;
  int64_t i = days - DateTable::kFirst;
  if (i >= 0 && i < DateTable::kCount)
    data_.append(table.text[static_cast<size_t>(i)].data(), 10);
  else
    data_ += format_date(days);
  data_ += ',';
}

void CsvBuffer::text_field(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  bool quote = s.empty() || blank(s.front()) || blank(s.back()) || s.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) return plain_field(s);
  data_ += '"';
  for (char c : s) {
    if (c == '"') data_ += '"';
    data_ += c;
  }
  data_ += "\",";
}

void CsvBuffer::value_field(const ColumnVector& col, size_t row) {
  if (col.is_null(row)) return null_field();
  switch (col.type.id) {
    case TypeId::Null:
      return null_field();
    case TypeId::Boolean:
      return plain_field(col.ints[row] ? "true" : "false");
    case TypeId::Integer:
    case TypeId::BigInt:
      return int_field(col.ints[row]);
    case TypeId::Decimal:
      return decimal_field(col.ints[row], col.type.scale);
    case TypeId::Date:
      return date_field(col.ints[row]);
    case TypeId::Double:
      return plain_field(format_double(col.dbls[row]));
    case TypeId::Varchar:
      return text_field(col.strs[row]);
  }
}

}  // namespace hindsight
