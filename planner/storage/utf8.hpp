#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hindsight {

/// True if `s` is well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
inline bool is_valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    // ASCII fast path: 8 bytes at a time.
    while (end - p >= 8) {
      uint64_t w;
      __builtin_memcpy(&w, p, 8);
      if (w & 0x8080808080808080ULL) break;
      p += 8;
    }
    if (p == end) break;
    unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int n;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF)
      n = 1, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
      n = 2, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
      n = 3, cp = c & 0x07;
    else
      return false;
    if (end - p <= n) return false;
    for (int k = 1; k <= n; ++k) {
      if ((p[k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[k] & 0x3F);
    }
    if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
      return false;
    p += n + 1;
  }
  return true;
}

/// Text safe to put in a message: printable ASCII and valid UTF-8 kept, other bytes as \xNN, cut at `max` bytes.
inline std::string printable_excerpt(std::string_view s, size_t max = 60) {
  std::string out;
  bool cut = s.size() > max;
  if (cut) s = s.substr(0, max);
  static const char* hex = "0123456789abcdef";
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      continue;
    }
    // Keep a whole valid multi-byte sequence; escape anything else.
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    if (n > 0 && i + n <= s.size() && is_valid_utf8(s.substr(i, n))) {
      out.append(s.substr(i, n));
      i += n - 1;
      continue;
    }
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  if (cut) out += "...";
  return out;
}

}  // namespace hindsight
