#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planner/storage/tpch_random.hpp"

namespace hindsight::tpch {

/// Comment text for the generated tables: a few megabytes of random sentences built once from the seed;
/// a comment is a slice of it that starts at a word. Words are lower-case, so phrases that queries look for
/// ("Customer ... Complaints") only occur where the generator puts them on purpose. The text never contains a
/// comma, quote or line break, so it needs no CSV quoting.
class TextPool {
 public:
  explicit TextPool(uint64_t seed);
  /// A slice of length in [min_len, max_len] (trailing blanks trimmed) starting at a word.
  std::string_view comment(Rng& rng, int min_len, int max_len) const;
  /// A slice of at most `len` characters (possibly empty).
  std::string_view snippet(Rng& rng, int len) const;
  /// A comment of length in [min_len, max_len] that contains `first`, then later `second`, e.g.
  /// "... special ... requests ...".
  std::string comment_with(Rng& rng, int min_len, int max_len, std::string_view first, std::string_view second) const;

 private:
  std::string text_;
};

/// A random string of letters and digits, with inner blanks, length in [min_len, max_len] (TPC-H v-string).
void random_vstring(Rng& rng, int min_len, int max_len, std::string& out);

}  // namespace hindsight::tpch
