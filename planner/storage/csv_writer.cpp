#include "planner/storage/csv_writer.hpp"

#include <array>

#include "planner/common/date.hpp"
#include "planner/common/types.hpp"

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
  bool quote = s.empty() || s.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) return plain_field(s);
  data_ += '"';
  for (char c : s) {
    if (c == '"') data_ += '"';
    data_ += c;
  }
  data_ += "\",";
}

}  // namespace hindsight
