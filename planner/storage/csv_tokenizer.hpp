#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planner/common/error.hpp"

namespace hindsight {

/// One field of the current CSV record; pointers into the tokenizer's read window (valid until the next record).
struct CsvField {
  const char* start;       ///< first byte of the field (the opening quote if quoted)
  const char* begin;       ///< first byte of the content
  size_t len;              ///< content length (still with "" escapes when `escaped`)
  const char* line_start;  ///< start of the physical line where the field starts
  int line;                ///< 1-based line of the field start
  bool quoted;
  bool escaped;
  /// An empty unquoted field: SQL NULL.
  bool is_null() const { return !quoted && len == 0; }
};

/// Splits a CSV file into records (RFC 4180: comma separator, "quoted" fields with "" escapes that may span lines,
/// \n or \r\n line ends, a UTF-8 BOM skipped; the dialect is in docs/csv.md). Reads the file in large chunks; a
/// record is handed out only when it is complete in the window. A blank line is a record of one NULL field (what
/// it means is the reader's business, see is_blank). Malformed quoting throws DATA_ERROR at file:line:col.
class CsvTokenizer {
 public:
  /// Opens `path` (IO_ERROR if it cannot). `column_names` only serve error messages.
  CsvTokenizer(std::string path, std::vector<std::string> column_names);
  ~CsvTokenizer();
  CsvTokenizer(const CsvTokenizer&) = delete;
  CsvTokenizer& operator=(const CsvTokenizer&) = delete;

  /// The next record, or nullptr at end of file. The line end after the last record is optional.
  const std::vector<CsvField>* next();

  /// A blank line ("" or "\r" before the line end): one unquoted empty field.
  static bool is_blank(const std::vector<CsvField>& record) { return record.size() == 1 && record[0].is_null(); }

  /// The field's text with "" unescaped (into `scratch` when needed).
  static std::string_view text(const CsvField& f, std::string& scratch) {
    return f.escaped ? unescape(f, scratch) : std::string_view(f.begin, f.len);
  }
  /// file:line:col of the field start (col counts characters, not bytes).
  SourcePos pos_of(const CsvField& f) const;
  [[noreturn]] void fail(const CsvField& f, const std::string& message) const;
  /// The DATA_ERROR fail() would throw, to throw later (the field's pointers do not outlive the record).
  Error error_at(const CsvField& f, const std::string& message) const;

  const std::string& path() const { return path_; }
  uint64_t file_size() const { return file_size_; }
  /// Bytes of the file consumed by the records returned so far.
  uint64_t consumed() const { return window_offset_ + pos_; }

 private:
  enum class Tok { Record, NeedMore, End };
  void read_more();
  Tok tokenize(const char* p, const char* end, const char*& next);
  bool tokenize_simple_line(const char* p, const char* nl, const char* end, const char*& next);
  std::string column_name(size_t i) const;
  static std::string_view unescape(const CsvField& f, std::string& scratch);

  std::string path_;
  std::vector<std::string> column_names_;
  int fd_ = -1;
  uint64_t file_size_ = 0;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;    ///< unparsed bytes are buf_[pos_, end_)
  uint64_t window_offset_ = 0;  ///< file offset of buf_[0]
  bool eof_ = false;
  int line_ = 1, next_line_ = 1;
  std::vector<CsvField> fields_;
};

}  // namespace hindsight
