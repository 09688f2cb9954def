#pragma once
#include <stdexcept>
#include <string>

namespace hindsight {

/// Typed error codes (DESIGN.md section 7). Callers branch on the code, never on the message.
enum class ErrorCode {
  PARSE_ERROR,
  BIND_ERROR,
  NOT_SUPPORTED,
  TYPE_ERROR,
  DATA_ERROR,
  MEMORY_LIMIT_EXCEEDED,
  TIMEOUT,
  TRANSIENT,
  IO_ERROR,
  STORE_ERROR,
  INTERNAL,
};

const char* error_code_name(ErrorCode code);

/// A position in a source: SQL text (line:col) or a file (file:line:col). Lines and columns are 1-based;
/// line == 0 means "no position".
struct SourcePos {
  std::string file;  ///< empty for SQL text
  int line = 0;
  int col = 0;
  bool valid() const { return line > 0; }
};

/// Every user-facing failure is an Error: a code, a message, and where known a position.
/// `detail` holds an optional excerpt (the SQL line with a caret under the column). Message and detail are kept
/// printable and bounded (planner/common/text.hpp): no raw control bytes or invalid UTF-8, at most about 1000
/// bytes of message, so an echoed giant identifier cannot flood stderr or break a JSON writer.
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, std::string message, SourcePos pos = {}, std::string detail = {});
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const SourcePos& pos() const { return pos_; }
  const std::string& detail() const { return detail_; }
  /// "PARSE_ERROR at 1:8: unexpected token 'FORM'" plus the caret excerpt on the next lines.
  std::string format() const;
  /// The same error (code and message) placed at `pos`, with `detail` as its excerpt.
  Error with_position(SourcePos pos, std::string detail) const;

 private:
  ErrorCode code_;
  std::string message_;
  SourcePos pos_;
  std::string detail_;
};

/// The SQL line containing `line`, with a caret under `col` (a byte column). A line longer than kMaxEchoBytes
/// shows the part around the column between "…"; control bytes and invalid UTF-8 are shown as \xNN.
std::string caret_excerpt(const std::string& text, int line, int col);

/// For a `catch (...)` at an API boundary: the exception being handled, as an Error. An Error stays itself;
/// std::bad_alloc becomes MEMORY_LIMIT_EXCEEDED (the process, not only the query budget, ran out of memory);
/// any other exception becomes INTERNAL with its what() text.
Error current_exception_as_error();

[[noreturn]] void throw_internal(const char* file, int line, const std::string& what);

}  // namespace hindsight

/// Invariant check: throws INTERNAL with file:line, never aborts the process.
#define HS_ASSERT(cond, msg)                                                   \
  do {                                                                         \
    if (!(cond)) ::hindsight::throw_internal(__FILE__, __LINE__, (msg));       \
  } while (0)
