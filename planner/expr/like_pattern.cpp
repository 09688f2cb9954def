#include "planner/expr/like_pattern.hpp"

#include <cstring>

namespace hindsight {
namespace {

// Byte length of the UTF-8 sequence that starts with `lead` (1 for ASCII and for malformed bytes).
size_t utf8_length(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

// Number of characters a segment consumes ('_' is one; literal bytes count by code point).
size_t segment_chars(std::string_view seg) {
  size_t n = 0;
  for (unsigned char c : seg) n += (c & 0xC0) != 0x80;
  return n;
}

// Matches `seg` at byte `pos` of `s`; on success `end` is the byte after the match.
bool match_at(std::string_view seg, std::string_view s, size_t pos, size_t& end) {
  for (char c : seg) {
    if (pos >= s.size()) return false;
    if (c == '_') {
      pos += utf8_length(static_cast<unsigned char>(s[pos]));
      if (pos > s.size()) pos = s.size();
    } else if (s[pos] == c) {
      ++pos;
    } else {
      return false;
    }
  }
  end = pos;
  return true;
}

// Leftmost match of `seg` starting in [from, limit) and ending at or before `limit`.
bool find_segment(std::string_view seg, std::string_view s, size_t from, size_t limit, size_t& end) {
  if (seg.find('_') == std::string_view::npos) {
    if (limit < from || limit - from < seg.size()) return false;
    const void* hit = memmem(s.data() + from, limit - from, seg.data(), seg.size());
    if (!hit) return false;
    end = static_cast<size_t>(static_cast<const char*>(hit) - s.data()) + seg.size();
    return true;
  }
  for (size_t p = from; p < limit; ++p) {
    if ((static_cast<unsigned char>(s[p]) & 0xC0) == 0x80) continue;  // not a character boundary
    size_t e;
    if (match_at(seg, s.substr(0, limit), p, e)) {
      end = e;
      return true;
    }
  }
  return false;
}

}  // namespace

LikePattern::LikePattern(std::string_view pattern) {
  anchored_start_ = pattern.empty() || pattern.front() != '%';
  anchored_end_ = pattern.empty() || pattern.back() != '%';
  const bool has_percent = pattern.find('%') != std::string_view::npos;
  bool has_underscore = false;
  std::string cur;
  for (char c : pattern) {
    if (c == '%') {
      if (!cur.empty()) segments_.push_back(std::move(cur));
      cur.clear();
    } else {
      has_underscore = has_underscore || c == '_';
      cur += c;
    }
  }
  if (!cur.empty()) segments_.push_back(std::move(cur));
  if (has_underscore || segments_.size() > 1) {
    shape_ = Shape::General;
  } else if (segments_.empty()) {
    shape_ = has_percent ? Shape::Any : Shape::Exact;  // '%' or ''
  } else {
    literal_ = segments_[0];
    if (anchored_start_ && anchored_end_)
      shape_ = Shape::Exact;
    else if (anchored_start_)
      shape_ = Shape::Prefix;
    else if (anchored_end_)
      shape_ = Shape::Suffix;
    else
      shape_ = Shape::Contains;
  }
}

bool LikePattern::matches(std::string_view s) const {
  switch (shape_) {
    case Shape::Exact:
      return s == literal_;
    case Shape::Prefix:
      return s.size() >= literal_.size() && s.compare(0, literal_.size(), literal_) == 0;
    case Shape::Suffix:
      return s.size() >= literal_.size() && s.compare(s.size() - literal_.size(), literal_.size(), literal_) == 0;
    case Shape::Contains:
      return s.size() >= literal_.size() && memmem(s.data(), s.size(), literal_.data(), literal_.size()) != nullptr;
    case Shape::Any:
      return true;
    case Shape::General:
      break;
  }
  size_t first = 0, last = segments_.size();  // the floating segments are [first, last)
  size_t pos = 0, limit = s.size();
  if (anchored_start_ && !segments_.empty()) {
    if (!match_at(segments_[0], s, 0, pos)) return false;
    first = 1;
    if (anchored_end_ && segments_.size() == 1) return pos == s.size();
  }
  if (anchored_end_ && last > first) {
    // The last segment must end exactly at the end: step back as many characters as it consumes.
    const std::string& tail = segments_[last - 1];
    size_t chars = segment_chars(tail), start = s.size();
    while (chars > 0 && start > pos) {
      --start;
      if ((static_cast<unsigned char>(s[start]) & 0xC0) != 0x80) --chars;
    }
    size_t end;
    if (chars > 0 || !match_at(tail, s, start, end) || end != s.size()) return false;
    limit = start;
    --last;
  }
  // Greedy leftmost placement of the middle segments is optimal: an earlier end never hurts later segments.
  for (size_t k = first; k < last; ++k) {
    size_t end;
    if (!find_segment(segments_[k], s, pos, limit, end)) return false;
    pos = end;
  }
  return true;
}

}  // namespace hindsight
