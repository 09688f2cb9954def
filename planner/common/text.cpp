#include "planner/common/text.hpp"

#include <cstdint>

namespace hindsight {

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

void append_hex(std::string& out, unsigned char c) {
  static const char* hex = "0123456789abcdef";
  out += "\\x";
  out += hex[c >> 4];
  out += hex[c & 15];
}

/// The largest length <= n at which `s` can be cut without splitting a UTF-8 sequence.
size_t char_boundary(std::string_view s, size_t n) {
  if (n >= s.size()) return s.size();
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return n;
}

/// Appends `s` with invalid bytes and control bytes escaped; `keep_layout` keeps newline and tab as they are.
void append_escaped(std::string& out, std::string_view s, bool keep_layout) {
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t n = utf8_sequence_length(s, i);
    if (n == 0 || c < 0x20 || c == 0x7F) {
      if (keep_layout && (c == '\n' || c == '\t'))
        out += static_cast<char>(c);
      else
        append_hex(out, c);
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
}

}  // namespace

size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  const size_t left = s.size() - i;
  const unsigned char c = p[0];
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (left < n) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  if (n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return n;
}

size_t invalid_utf8_offset(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t n = utf8_sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

std::string printable(std::string_view s, size_t max) {
  const size_t keep = char_boundary(s, max);
  std::string out;
  append_escaped(out, s.substr(0, keep), false);
  if (keep < s.size()) out += kEllipsis;
  return out;
}

std::string bounded_message(std::string_view message, size_t max) {
  std::string out;
  if (message.size() <= max) {
    append_escaped(out, message, true);
    return out;
  }
  const size_t head = char_boundary(message, max * 2 / 3);
  size_t tail = message.size() - (max - max * 2 / 3);
  while (tail < message.size() && (static_cast<unsigned char>(message[tail]) & 0xC0) == 0x80) ++tail;
  append_escaped(out, message.substr(0, head), true);
  out += kEllipsis;
  append_escaped(out, message.substr(tail), true);
  return out;
}

}  // namespace hindsight
