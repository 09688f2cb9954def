#include "planner/common/error.hpp"

#include <fmt/format.h>
#include <sstream>

namespace hindsight {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::PARSE_ERROR: return "PARSE_ERROR";
    case ErrorCode::BIND_ERROR: return "BIND_ERROR";
    case ErrorCode::NOT_SUPPORTED: return "NOT_SUPPORTED";
    case ErrorCode::TYPE_ERROR: return "TYPE_ERROR";
    case ErrorCode::DATA_ERROR: return "DATA_ERROR";
    case ErrorCode::MEMORY_LIMIT_EXCEEDED: return "MEMORY_LIMIT_EXCEEDED";
    case ErrorCode::TIMEOUT: return "TIMEOUT";
    case ErrorCode::TRANSIENT: return "TRANSIENT";
    case ErrorCode::IO_ERROR: return "IO_ERROR";
    case ErrorCode::STORE_ERROR: return "STORE_ERROR";
    case ErrorCode::INTERNAL: return "INTERNAL";
  }
  return "INTERNAL";
}

static std::string render(ErrorCode code, const std::string& message, const SourcePos& pos) {
  if (!pos.valid()) return fmt::format("{}: {}", error_code_name(code), message);
  if (pos.file.empty()) return fmt::format("{} at {}:{}: {}", error_code_name(code), pos.line, pos.col, message);
  return fmt::format("{} at {}:{}:{}: {}", error_code_name(code), pos.file, pos.line, pos.col, message);
}

Error::Error(ErrorCode code, std::string message, SourcePos pos, std::string detail)
    : std::runtime_error(render(code, message, pos)),
      code_(code),
      message_(std::move(message)),
      pos_(std::move(pos)),
      detail_(std::move(detail)) {}

std::string Error::format() const {
  std::string out = what();
  if (!detail_.empty()) out += "\n" + detail_;
  return out;
}

std::string caret_excerpt(const std::string& text, int line, int col) {
  std::istringstream in(text);
  std::string cur;
  for (int i = 1; std::getline(in, cur); ++i) {
    if (i == line) {
      std::string caret(static_cast<size_t>(col > 1 ? col - 1 : 0), ' ');
      for (size_t k = 0; k < caret.size() && k < cur.size(); ++k)
        if (cur[k] == '\t') caret[k] = '\t';
      return fmt::format("  {}\n  {}^", cur, caret);
    }
  }
  return {};
}

void throw_internal(const char* file, int line, const std::string& what) {
  throw Error(ErrorCode::INTERNAL, fmt::format("{} ({}:{})", what, file, line));
}

}  // namespace hindsight
