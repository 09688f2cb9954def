#include "planner/common/error.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <new>

#include "planner/common/text.hpp"

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
    : std::runtime_error(""),
      code_(code),
      message_(bounded_message(message)),
      pos_(std::move(pos)),
      detail_(bounded_message(detail, 4000)) {
  static_cast<std::runtime_error&>(*this) = std::runtime_error(render(code_, message_, pos_));
}

std::string Error::format() const {
  std::string out = what();
  if (!detail_.empty()) out += "\n" + detail_;
  return out;
}

Error Error::with_position(SourcePos pos, std::string detail) const {
  // Not through the constructor: the message is bounded already, and bounding twice would cut it again.
  Error out = *this;
  static_cast<std::runtime_error&>(out) = std::runtime_error(render(code_, message_, pos));
  out.pos_ = std::move(pos);
  out.detail_ = bounded_message(detail, 4000);
  return out;
}

std::string caret_excerpt(const std::string& text, int line, int col) {
  if (line < 1) return {};
  size_t start = 0;
  for (int i = 1; i < line; ++i) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) return {};
    start = nl + 1;
  }
  size_t end = text.find('\n', start);
  std::string_view cur(text.data() + start, (end == std::string::npos ? text.size() : end) - start);
  if (!cur.empty() && cur.back() == '\r') cur.remove_suffix(1);
  const size_t target = col > 1 ? static_cast<size_t>(col - 1) : 0;  // byte offset of the caret in the line

  // A long line shows kMaxEchoBytes around the column.
  size_t from = 0, to = cur.size();
  if (cur.size() > kMaxEchoBytes) {
    from = target > kMaxEchoBytes / 2 ? target - kMaxEchoBytes / 2 : 0;
    to = std::min(cur.size(), from + kMaxEchoBytes);
    from = to > kMaxEchoBytes ? to - kMaxEchoBytes : 0;
    auto continuation = [&](size_t i) { return (static_cast<unsigned char>(cur[i]) & 0xC0) == 0x80; };
    while (from > 0 && from < target && continuation(from)) ++from;
    while (to < cur.size() && to > target + 1 && continuation(to)) --to;
  }
  static constexpr std::string_view ellipsis = "\xE2\x80\xA6";
  std::string shown, caret;
  if (from > 0) {
    shown += ellipsis;
    caret += ' ';
  }
  bool placed = false;
  for (size_t i = from; i < to;) {
    const auto c = static_cast<unsigned char>(cur[i]);
    size_t n = utf8_sequence_length(cur, i);
    std::string unit;
    size_t width = 1;  // display columns: one per character, four for an escaped byte
    if (c == '\t') {
      unit = "\t";
    } else if (n == 0 || c < 0x20 || c == 0x7F) {
      unit = printable(cur.substr(i, 1));
      n = 1;
      width = unit.size();
    } else {
      unit = std::string(cur.substr(i, n));
    }
    if (target < i + n) placed = true;
    if (!placed) caret += c == '\t' ? std::string("\t") : std::string(width, ' ');
    shown += unit;
    i += n;
  }
  if (to < cur.size()) shown += ellipsis;
  return fmt::format("  {}\n  {}^", shown, caret);
}

Error current_exception_as_error() {
  try {
    throw;
  } catch (const Error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return Error(ErrorCode::MEMORY_LIMIT_EXCEEDED, "the process ran out of memory");
  } catch (const std::exception& e) {
    return Error(ErrorCode::INTERNAL, fmt::format("unexpected exception: {}", e.what()));
  } catch (...) {
    return Error(ErrorCode::INTERNAL, "unexpected exception of an unknown type");
  }
}

void throw_internal(const char* file, int line, const std::string& what) {
  throw Error(ErrorCode::INTERNAL, fmt::format("{} ({}:{})", what, file, line));
}

}  // namespace hindsight
