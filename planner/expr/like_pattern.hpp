#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace hindsight {

/// A SQL LIKE pattern compiled once: '%' matches any sequence, '_' exactly one character (UTF-8 code point); there
/// is no escape character. Common shapes ('abc', 'abc%', '%abc', '%abc%') match with one comparison or search;
/// the general form matches its '%'-separated segments greedily left to right, which is linear in the input for each
/// segment and never backtracks exponentially.
class LikePattern {
 public:
  explicit LikePattern(std::string_view pattern);
  bool matches(std::string_view s) const;

 private:
  enum class Shape { Exact, Prefix, Suffix, Contains, Any, General };
  Shape shape_ = Shape::General;
  std::string literal_;                ///< Exact / Prefix / Suffix / Contains
  std::vector<std::string> segments_;  ///< General: the pieces between '%' (may contain '_')
  bool anchored_start_ = true;         ///< General: the pattern does not start with '%'
  bool anchored_end_ = true;           ///< General: the pattern does not end with '%'
};

}  // namespace hindsight
