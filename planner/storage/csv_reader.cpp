#include "planner/storage/csv_reader.hpp"

#include <fmt/format.h>

#include <cctype>
#include <optional>

#include "planner/common/error.hpp"
#include "planner/common/text.hpp"
#include "planner/storage/bucketing.hpp"
#include "planner/storage/csv_tokenizer.hpp"
#include "planner/storage/field_parser.hpp"

namespace hindsight {

namespace {

/// Rows read before sizing the bucket columns from the bytes they took.
constexpr uint64_t kSampleRows = 65536;

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::vector<std::string> column_names(const TableDef& def) {
  std::vector<std::string> names;
  for (const auto& c : def.columns) names.push_back(c.name);
  return names;
}

/// Parses records straight into the bucket each row belongs to (no intermediate batch).
class CsvTableReader {
 public:
  CsvTableReader(const std::string& path, const TableDef& def, LoadGuard* guard)
      : def_(def), tok_(path, column_names(def)), key_columns_(distribution_column_indexes(def)), guard_(guard) {
    for (const auto& c : def.columns)
      fixed_row_bytes_ += c.type.physical() == PhysicalKind::String ? sizeof(std::string) : sizeof(int64_t);
    buckets_ = def.distribution == DistributionKind::Replicated ? 1 : static_cast<uint32_t>(std::max(def.buckets, 1));
    table_.def = def;
    table_.buckets.resize(buckets_);
    for (auto& b : table_.buckets)
      for (const auto& c : def.columns) b.emplace_back(c.type);
  }

  Table read() {
    const std::vector<CsvField>* fields = tok_.next();
    if (!fields)
      throw Error(ErrorCode::DATA_ERROR, fmt::format("empty file: missing header row for table '{}'", def_.name),
                  SourcePos{tok_.path(), 1, 1});
    check_header(*fields);
    // A blank line is a row only where it can mean one: a single nullable column holding NULL. Elsewhere blank lines
    // are tolerated at the end of the file (editors add them), so the first is remembered and reported only if a
    // record follows it.
    std::optional<Error> blank_line;
    const bool blank_is_row = def_.columns.size() == 1 && def_.columns[0].nullable;
    while ((fields = tok_.next())) {
      if (!blank_is_row && CsvTokenizer::is_blank(*fields)) {
        if (!blank_line) blank_line = tok_.error_at((*fields)[0], blank_line_message());
        continue;
      }
      if (blank_line) throw *blank_line;
      convert_record(*fields);
      if (rows_ == kSampleRows) reserve_estimate();
      if (guard_ && rows_ % kGuardRows == 0) guard_->check(def_.name, estimated_bytes());
    }
    table_.row_count = rows_;
    // Give back what the size estimate reserved beyond the rows: the table then holds (and is charged)
    // the same memory as when it is read from its binary cache.
    for (auto& bucket : table_.buckets)
      for (auto& c : bucket) {
        c.ints.shrink_to_fit();
        c.dbls.shrink_to_fit();
        c.strs.shrink_to_fit();
        c.nulls.shrink_to_fit();
      }
    return std::move(table_);
  }

 private:
  void check_field_count(const std::vector<CsvField>& fields) const {
    size_t n = def_.columns.size();
    if (fields.size() == n) return;
    std::string msg = fmt::format("expected {} fields, found {} (table '{}')", n, fields.size(), def_.name);
    if (fields.size() > n) tok_.fail(fields[n], msg);
    CsvField at = fields.back();
    if (!at.quoted) at.start = at.begin + at.len;  // where the missing comma should be
    tok_.fail(at, msg);
  }

  std::string blank_line_message() const {
    std::string what = def_.columns.size() == 1 ? fmt::format("column '{}' is not nullable", def_.columns[0].name)
                                                : fmt::format("expected {} fields", def_.columns.size());
    return fmt::format("blank line: {} (table '{}'); only blank lines at the end of the file are ignored", what,
                       def_.name);
  }

  void check_header(const std::vector<CsvField>& fields) {
    if (CsvTokenizer::is_blank(fields))
      tok_.fail(fields[0], fmt::format("the first line is blank: expected the header row of table '{}'", def_.name));
    check_field_count(fields);
    for (size_t c = 0; c < fields.size(); ++c) {
      std::string_view name = CsvTokenizer::text(fields[c], scratch_);
      if (!iequals(name, def_.columns[c].name))
        tok_.fail(fields[c], fmt::format("header field {} is '{}', expected column '{}' of table '{}'", c + 1,
                                         printable(name, 60), def_.columns[c].name, def_.name));
    }
  }

  /// Bucket of the row, by the rule of bucketing.hpp (the per-value hashes are the same functions).
  uint32_t bucket_of_row(const std::vector<CsvField>& fields) {
    if (buckets_ == 1) return 0;
    if (def_.distribution == DistributionKind::Random) return static_cast<uint32_t>(rows_ % buckets_);
    uint64_t h = 0;
    for (int k : key_columns_) {
      const CsvField& f = fields[static_cast<size_t>(k)];
      const ColumnDef& cd = def_.columns[static_cast<size_t>(k)];
      uint64_t vh = kNullHash;
      if (!f.is_null()) {
        std::string_view text = CsvTokenizer::text(f, scratch_);
        switch (cd.type.physical()) {
          case PhysicalKind::Int64: {
            int64_t v;
            if (!parse_int64_field(cd.type, text, v)) bad_value(f, cd, text);
            vh = value_hash_int(v);
            break;
          }
          case PhysicalKind::Double: {
            double v;
            if (!parse_double_field(text, v)) bad_value(f, cd, text);
            vh = value_hash_double(v);
            break;
          }
          case PhysicalKind::String:
            vh = value_hash_string(text);
            break;
        }
      }
      h = hash_combine(h, vh);
    }
    return static_cast<uint32_t>(bucket_of(h, static_cast<int>(buckets_)));
  }

  void convert_record(const std::vector<CsvField>& fields) {
    check_field_count(fields);
    std::vector<ColumnVector>& cols = table_.buckets[bucket_of_row(fields)];
    for (size_t c = 0; c < fields.size(); ++c) {
      const CsvField& f = fields[c];
      ColumnVector& col = cols[c];
      const ColumnDef& cd = def_.columns[c];
      if (f.is_null()) {
        if (!cd.nullable)
          tok_.fail(f, fmt::format("column '{}' is not nullable but the field is empty (NULL)", cd.name));
        col.append_null();
        continue;
      }
      std::string_view text = CsvTokenizer::text(f, scratch_);
      switch (col.type.physical()) {
        case PhysicalKind::Int64: {
          int64_t v;
          if (!parse_int64_field(cd.type, text, v)) bad_value(f, cd, text);
          col.append_int(v);
          break;
        }
        case PhysicalKind::Double: {
          double v;
          if (!parse_double_field(text, v)) bad_value(f, cd, text);
          col.append_double(v);
          break;
        }
        case PhysicalKind::String:
          if (!is_valid_utf8(text))
            tok_.fail(f, fmt::format("column '{}': invalid UTF-8 in '{}'", cd.name, printable(text, 60)));
          col.strs.emplace_back(text);
          if (col.has_nulls()) col.nulls.push_back(0);
          break;
      }
    }
    ++rows_;
  }

  [[noreturn]] void bad_value(const CsvField& f, const ColumnDef& cd, std::string_view text) const {
    if (f.quoted && text.empty())
      tok_.fail(f, fmt::format("column '{}': a quoted empty field is an empty string, not a {} value (leave the "
                               "field empty, unquoted, for NULL)",
                               cd.name, cd.type.to_string()));
    if (!is_valid_utf8(text))
      tok_.fail(f, fmt::format("column '{}': invalid UTF-8 in '{}'", cd.name, printable(text, 60)));
    tok_.fail(f,
              fmt::format("column '{}': invalid {} value '{}'", cd.name, cd.type.to_string(), printable(text, 60)));
  }

  /// At most the bytes the columns hold so far (their fixed slots, not the string heap): a load is
  /// refused early only when it certainly cannot fit, and the loader's exact check after the load
  /// decides the rest, so the outcome does not depend on whether the binary cache was used.
  int64_t estimated_bytes() const { return static_cast<int64_t>(rows_ * fixed_row_bytes_); }

  /// Sizes the bucket columns from the bytes per row seen so far, so that big loads rarely reallocate.
  void reserve_estimate() {
    uint64_t consumed = tok_.consumed();
    if (consumed == 0 || tok_.file_size() < 2 * consumed) return;
    double rows = static_cast<double>(tok_.file_size()) * static_cast<double>(rows_) / static_cast<double>(consumed);
    auto per_bucket = static_cast<size_t>(rows * 1.03 / buckets_) + 64;
    for (auto& b : table_.buckets)
      for (auto& c : b) c.reserve(per_bucket);
  }

  const TableDef& def_;
  CsvTokenizer tok_;
  std::vector<int> key_columns_;
  uint32_t buckets_ = 1;
  uint64_t rows_ = 0;
  LoadGuard* guard_;
  static constexpr uint64_t kGuardRows = 8192;
  uint64_t fixed_row_bytes_ = 0;
  std::string scratch_;
  Table table_;
};

}  // namespace

Table read_csv_table(const std::string& path, const TableDef& def, LoadGuard* guard) {
  return CsvTableReader(path, def, guard).read();
}

}  // namespace hindsight
