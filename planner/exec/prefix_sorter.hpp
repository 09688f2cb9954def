#pragma once
// The normalized-prefix sort behind sort_rows() (row_comparator.hpp), over any row storage: the columns of a
// std::vector<ColumnVector> or a SortStore (the ORDER BY's chunked rows). Internal to planner/exec.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "planner/exec/sort_key.hpp"
#include "planner/common/types.hpp"

namespace hindsight::prefix_sort {

/// One row to sort: a fixed-size normalized image of one key (one 8-byte chunk of it for strings), compared as
/// unsigned integers, so that comparisons stay in the array instead of chasing the rows' strings.
struct SortEntry {
  uint64_t prefix;  ///< order-preserving image of the key's current chunk
  uint32_t row;     ///< row index into the columns; the final tie-break
  uint8_t rank;     ///< NULL placement: 0 sorts first, 2 last, 1 for values
  uint8_t len;      ///< strings: bytes left from the chunk's start, capped at 9 (9: the string goes on); else 0
};
static_assert(sizeof(SortEntry) == 16);

inline bool entry_less(const SortEntry& x, const SortEntry& y) {
  if (x.rank != y.rank) return x.rank < y.rank;
  if (x.prefix != y.prefix) return x.prefix < y.prefix;
  return x.len < y.len;
}
inline bool entry_tie(const SortEntry& x, const SortEntry& y) {
  return x.rank == y.rank && x.prefix == y.prefix && x.len == y.len;
}

/// Order-preserving unsigned image of a signed integer.
inline uint64_t normalize_int(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63); }
/// Order-preserving unsigned image of a double (-0.0 as 0.0, so values the comparator calls equal tie).
inline uint64_t normalize_double(double d) {
  if (d == 0.0) d = 0.0;
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return (bits & (uint64_t{1} << 63)) ? ~bits : bits | (uint64_t{1} << 63);
}

/// Sorts entries by the keys from `key` on, all earlier keys (and, for a string key, its first `offset` bytes)
/// being equal across [begin, end). Each level fills the entries' images of one key chunk, sorts by them and
/// refines every run of ties with the next chunk or key. A string chunk is bytes [offset, offset + 8), big-endian
/// and zero-padded, plus the bytes left (capped at 9): equal padded bytes with fewer bytes left mean a prefix of
/// the other string, which sorts first (std::string::compare, unsigned bytes), so the order never contradicts
/// the row comparator and a tie with fewer than 9 left means equal strings.
///
/// `Rows` reads the storage: `PhysicalKind kind(size_t key)`, `bool is_null(size_t key, uint32_t row)`,
/// `int64_t int_at(key, row)`, `double dbl_at(key, row)`, `std::string_view str_at(key, row)` (by position in
/// `keys`), and `int compare_from(size_t key, uint32_t a, uint32_t b)`: RowComparator's order over keys
/// key, key + 1, ... (ASC/DESC, NULLS FIRST/LAST).
template <typename Rows>
class PrefixSorter {
 public:
  PrefixSorter(const Rows& rows, const std::vector<SortKey>& keys) : rows_(rows), keys_(keys) {}

  void sort(SortEntry* begin, SortEntry* end, size_t key, size_t offset) {
    if (end - begin < 2) return;
    if (key == keys_.size()) {  // equal on every key: input order
      std::sort(begin, end, [](const SortEntry& x, const SortEntry& y) { return x.row < y.row; });
      return;
    }
    if (offset >= kMaxPrefixBytes) {  // a long common prefix: compare the rest of the rows directly
      std::sort(begin, end, [&](const SortEntry& x, const SortEntry& y) {
        int c = rows_.compare_from(key, x.row, y.row);
        return c != 0 ? c < 0 : x.row < y.row;
      });
      return;
    }
    fill(begin, end, key, offset);
    std::sort(begin, end, [](const SortEntry& x, const SortEntry& y) { return entry_less(x, y); });  // inlined
    const bool is_string = rows_.kind(key) == PhysicalKind::String;
    for (SortEntry* run = begin; run != end;) {
      SortEntry* stop = run + 1;
      while (stop != end && entry_tie(*run, *stop)) ++stop;
      if (stop - run > 1) {
        // The run's image is overwritten by the next level, so decide from the run's first entry first.
        const bool more_bytes = is_string && run->rank == 1 && (keys_[key].ascending ? run->len == 9 : run->len == 0);
        if (more_bytes) sort(run, stop, key, offset + 8);
        else sort(run, stop, key + 1, 0);
      }
      run = stop;
    }
  }

 private:
  static constexpr size_t kMaxPrefixBytes = 64;

  void fill(SortEntry* begin, SortEntry* end, size_t key, size_t offset) const {
    const SortKey& k = keys_[key];
    const uint8_t null_rank = k.nulls_first ? 0 : 2;
    const uint64_t flip = k.ascending ? 0 : ~uint64_t{0};
    const PhysicalKind kind = rows_.kind(key);
    for (SortEntry* e = begin; e != end; ++e) {
      const uint32_t r = e->row;
      if (rows_.is_null(key, r)) {
        e->rank = null_rank;
        e->prefix = 0;
        e->len = 0;
        continue;
      }
      e->rank = 1;
      e->len = 0;
      uint64_t p = 0;
      switch (kind) {
        case PhysicalKind::Int64: p = normalize_int(rows_.int_at(key, r)); break;
        case PhysicalKind::Double: p = normalize_double(rows_.dbl_at(key, r)); break;
        case PhysicalKind::String: {
          const std::string_view s = rows_.str_at(key, r);
          const size_t left = s.size() > offset ? s.size() - offset : 0;
          unsigned char b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
          if (left > 0) std::memcpy(b, s.data() + offset, std::min<size_t>(left, 8));
          for (unsigned char c : b) p = (p << 8) | c;
          const auto len = static_cast<uint8_t>(std::min<size_t>(left, 9));
          e->len = k.ascending ? len : static_cast<uint8_t>(9 - len);
          break;
        }
      }
      e->prefix = p ^ flip;
    }
  }

  const Rows& rows_;
  const std::vector<SortKey>& keys_;
};

/// Sorts `perm` (row indexes into `rows`) by `keys`, ties in ascending row index; needs perm.size() entries of
/// scratch (sort_scratch_bytes).
template <typename Rows>
void sort_perm(const Rows& rows, const std::vector<SortKey>& keys, std::vector<uint32_t>& perm) {
  if (keys.empty() || perm.size() < 2) return;
  std::vector<SortEntry> entries(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) entries[i] = {0, perm[i], 0, 0};
  PrefixSorter<Rows> sorter(rows, keys);
  sorter.sort(entries.data(), entries.data() + entries.size(), 0, 0);
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = entries[i].row;
}

}  // namespace hindsight::prefix_sort
