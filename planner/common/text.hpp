#pragma once
/// Text helpers for user-facing messages: UTF-8 validation with the offending offset, and the bounded,
/// printable form of user text echoed in an error (an identifier, a literal, a line of SQL).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hindsight {

/// Longest piece of user text echoed in a message or a caret excerpt, in bytes; longer text is cut with "…".
constexpr size_t kMaxEchoBytes = 200;

/// Byte length of the well-formed UTF-8 sequence starting at s[i] (1 for ASCII, including NUL), or 0 when the
/// bytes there are not well-formed UTF-8 (stray continuation byte, overlong form, surrogate, beyond U+10FFFF,
/// truncated sequence).
size_t utf8_sequence_length(std::string_view s, size_t i);

/// Offset of the first byte that is not well-formed UTF-8, or std::string_view::npos when all of `s` is.
size_t invalid_utf8_offset(std::string_view s);

/// True if `s` is well-formed UTF-8. Inline, with an ASCII fast path: the CSV reader asks it of every text field.
inline bool is_valid_utf8(std::string_view s) {
  size_t i = 0;
  for (uint64_t w; i + 8 <= s.size(); i += 8) {
    __builtin_memcpy(&w, s.data() + i, 8);
    if (w & 0x8080808080808080ULL) break;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i == s.size() || invalid_utf8_offset(s.substr(i)) == std::string_view::npos;
}

/// `s` made safe to echo in a message: valid UTF-8 and printable ASCII kept, control bytes and bytes that are not
/// UTF-8 written as \xNN (tab and newline too, so an echo stays on one line), cut after `max` bytes of input
/// (on a character boundary) with "…".
std::string printable(std::string_view s, size_t max = kMaxEchoBytes);

/// Keeps `message` valid UTF-8 without raw control bytes other than newline and tab (those become \xNN), and
/// bounds its length: a message longer than `max` bytes keeps its head and tail around a "…", which is where an
/// echoed giant identifier or literal sits.
std::string bounded_message(std::string_view message, size_t max = 1000);

}  // namespace hindsight
