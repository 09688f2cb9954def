#pragma once
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace hindsight {

/// An in-memory CSV row builder: each field call appends the value and a comma, end_row() turns the last comma
/// into a newline. Numbers are written with std::to_chars, with no allocation per field.
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
  /// A scaled integer with exactly `scale` (1..18) fraction digits: decimal_field(-1234, 2) writes -12.34.
  void decimal_field(int64_t scaled, int scale = 2);
  /// YYYY-MM-DD of days since 1970-01-01.
  void date_field(int64_t days);
  /// Text, quoted (with "" for quotes) only if it contains a comma, quote, CR or LF, or is empty.
  void text_field(std::string_view s);
  /// Text known to need no quoting (no comma, quote or line break, not empty).
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
