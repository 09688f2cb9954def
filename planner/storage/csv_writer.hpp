#pragma once
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace hindsight {

struct ColumnVector;

/// An in-memory CSV row builder: each field call appends the value and a comma, end_row() turns the last comma
/// into a newline. Numbers are written with std::to_chars, with no allocation per field. What it writes reads back
/// through read_csv_table as the same values (the dialect is in docs/csv.md).
class CsvBuffer {
 public:
  void reserve(size_t n) { data_.reserve(n); }
  void clear() { data_.clear(); }
  const std::string& data() const { return data_; }
  size_t size() const { return data_.size(); }

  void int_field(int64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    data_.append(tmp, static_cast<size_t>(r.ptr - tmp));
    data_ += ',';
  }
  /// A scaled integer with exactly `scale` (0..18) fraction digits: decimal_field(-1234, 2) writes -12.34.
  void decimal_field(int64_t scaled, int scale = 2);
  /// YYYY-MM-DD of days since 1970-01-01.
  void date_field(int64_t days);
  /// Text, quoted (with "" for quotes) if it is empty (unquoted empty is NULL), contains a comma, quote, CR or LF,
  /// or starts or ends with a space or tab (which other tools may trim).
  void text_field(std::string_view s);
  /// Row `row` of `col` in the form read_csv_table reads back as the same value: NULL as an empty unquoted field,
  /// VARCHAR per text_field, numbers, dates and booleans in their canonical text (DOUBLE as the shortest text
  /// that reads back bit for bit, NaN and Infinity included).
  void value_field(const ColumnVector& col, size_t row);
  /// Text known to need no quoting (see text_field).
  void plain_field(std::string_view s) {
    data_.append(s);
    data_ += ',';
  }
  void null_field() { data_ += ','; }
  void end_row() {
    if (!data_.empty() && data_.back() == ',')
      data_.back() = '\n';
    else
      data_ += '\n';
  }
  /// Appends raw text (no separator), e.g. a header line.
  void raw(std::string_view s) { data_.append(s); }

 private:
  std::string data_;
};

}  // namespace hindsight
