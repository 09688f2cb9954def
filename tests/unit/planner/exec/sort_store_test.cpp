// The sort's row storage (planner/exec/sort_store.*): the string arena's blocks, rows in fixed-size chunks (values,
// NULLs and strings across chunk and block boundaries, empty strings, a column whose first NULL comes late), the
// charge it reports being exactly what it allocates, and sort_store_rows ordering exactly as sort_rows does.
#include <gtest/gtest.h>

#include <fstream>
#include <numeric>
#include <random>
#include <string>

#include "planner/exec/row_comparator.hpp"
#include "planner/exec/sort_store.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;

TEST(ByteArenaTest, CopiesAcrossBlocksAndFreesThemWhole) {
  ByteArena a(64, 256);
  EXPECT_EQ(a.allocated_bytes(), 0u);
  EXPECT_EQ(a.growth_for(0), 0u);
  EXPECT_EQ(a.copy("").size(), 0u);  // an empty string takes no block
  EXPECT_EQ(a.blocks(), 0u);
  std::vector<std::string> want;
  std::vector<std::string_view> got;
  for (int i = 0; i < 200; ++i) {
    want.push_back(std::string(static_cast<size_t>(i % 37), static_cast<char>('a' + i % 26)) + std::to_string(i));
    got.push_back(a.copy(want.back()));
  }
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << i;  // earlier blocks stay put
  EXPECT_GT(a.blocks(), 3u);
  // Blocks double from 64 to 256 bytes; a string larger than that gets a block of its own size.
  const size_t before = a.allocated_bytes();
  const std::string big(1000, 'x');
  const size_t g = a.growth_for(big.size());
  EXPECT_GE(g, big.size());
  EXPECT_EQ(a.reserve(big.size()), g);
  EXPECT_EQ(a.growth_for(big.size()), 0u) << "the block reserved has room for it";
  EXPECT_EQ(a.copy(big), big);
  EXPECT_EQ(a.allocated_bytes(), before + g);
  a.clear();
  EXPECT_EQ(a.allocated_bytes(), 0u);
  EXPECT_EQ(a.blocks(), 0u);
  EXPECT_EQ(a.growth_for(10), 64u) << "after clear() blocks start small again";
}

/// Resident anonymous memory of this process, in KB.
long rss_anon_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("RssAnon:", 0) == 0) return std::stol(line.substr(8));
  return -1;
}

TEST(ByteArenaTest, LargeBlocksGoBackToTheSystemWhenCleared) {
  if (rss_anon_kb() < 0) GTEST_SKIP() << "no /proc/self/status";
  ByteArena a(1 << 20, 1 << 20);
  const std::string s(40, 's');
  const long before = rss_anon_kb();
  for (int i = 0; i < (64 << 20) / 40; ++i) a.copy(s);  // 64 MB of 40-byte strings
  const long full = rss_anon_kb();
  EXPECT_GE(full - before, 60 << 10);
  a.clear();
  EXPECT_LE(rss_anon_kb() - before, 4 << 10) << "the freed blocks stayed resident";
}

/// Column 0: strings (empty ones, of 12 and 13 bytes, long ones, NULLs from the second batch on only); 1: ints with NULLs; 2: doubles.
std::vector<Batch> batches(unsigned seed, const std::vector<size_t>& sizes) {
  std::mt19937 rng(seed);
  std::vector<Batch> out;
  int seq = 0;
  for (size_t b = 0; b < sizes.size(); ++b) {
    std::vector<OptStr> s;
    std::vector<OptInt> k;
    std::vector<OptDbl> d;
    for (size_t i = 0; i < sizes[b]; ++i, ++seq) {
      const unsigned r = rng();
      if (b > 0 && r % 11 == 0) s.push_back(std::nullopt);
      else if (r % 7 == 0) s.push_back(std::string());
      else if (r % 29 == 0) s.push_back(std::string(70 + r % 300, static_cast<char>('a' + r % 3)) + std::to_string(r % 5));
      else if (r % 5 == 0) s.push_back(std::string(12 + r % 2, 'm'));  // at and past the inline bytes
      else s.push_back("v" + std::to_string(r % 500) + std::string(r % 2 ? 20 : 0, 'q'));
      k.push_back(r % 13 == 0 ? std::nullopt : OptInt(static_cast<int64_t>(rng() % 50) - 25));
      d.push_back(b == 1 && i == 0 ? std::nullopt : OptDbl(seq * 0.5));
    }
    out.push_back(make_batch({str_col(s), int_col(k), dbl_col(d)}));
  }
  return out;
}

TEST(SortStoreTest, RowsAcrossChunksReadBackExactlyWithTheirCharge) {
  // Batches of odd sizes: rows straddle the 4096-row chunks; a small arena makes strings straddle its blocks.
  for (const std::vector<size_t>& sizes :
       {std::vector<size_t>{3000, 1, 5000, 4095, 2049, 0, 7}, std::vector<size_t>{1, 5, 20, 100, 1900, 30, 3000}}) {
  SCOPED_TRACE(sizes[0]);
  const auto in = batches(1, sizes);  // the second: chunk 0 grows 16, 32, ... 2048 rows before the next comes
  SortStore store({DataType::varchar(), DataType::bigint(), DataType::float64()}, 8 << 10);
  std::vector<ColumnVector> all(3);
  for (size_t c = 0; c < 3; ++c) all[c].type = in[0].columns[c].type;
  for (const Batch& b : in) {
    const int64_t g = store.growth_for(b);
    const size_t before = store.allocated_bytes();
    EXPECT_EQ(store.append(b), g) << "growth_for is what append allocates";
    EXPECT_EQ(store.allocated_bytes(), before + static_cast<size_t>(g));
    for (size_t c = 0; c < 3; ++c) all[c].append_all(b.columns[c]);
  }
  const size_t n = all[0].size();
  ASSERT_EQ(store.rows(), n);
  for (size_t r = 0; r < n; ++r) {
    for (size_t c = 0; c < 3; ++c) ASSERT_EQ(store.is_null(c, r), all[c].is_null(r)) << c << " " << r;
    if (!all[0].is_null(r)) {
      ASSERT_EQ(store.str_at(0, r), all[0].strs[r]) << r;
    }
    if (!all[1].is_null(r)) {
      ASSERT_EQ(store.int_at(1, r), all[1].ints[r]) << r;
    }
    if (!all[2].is_null(r)) {
      ASSERT_EQ(store.dbl_at(2, r), all[2].dbls[r]) << r;
    }
  }
  // gather() in reverse order, into a batch that already holds strings (their buffers are reused).
  std::vector<uint32_t> sel(n);
  std::iota(sel.rbegin(), sel.rend(), 0u);
  Batch out = in[0];
  store.gather(sel.data(), n, out);
  ASSERT_EQ(out.rows, n);
  for (size_t k = 0; k < n; ++k)
    for (size_t c = 0; c < 3; ++c) ASSERT_EQ(out.columns[c].get(k), all[c].get(sel[k])) << c << " " << k;
  EXPECT_EQ(out.columns[0].strs.size(), n);
  store.clear();
  EXPECT_EQ(store.rows(), 0u);
  EXPECT_EQ(store.allocated_bytes(), 0u);
  // Usable again after clear().
  const int64_t again = store.append(in[1]);
  EXPECT_GT(again, 0);
  EXPECT_EQ(static_cast<size_t>(again), store.allocated_bytes());
  EXPECT_EQ(store.str_at(0, 0), in[1].columns[0].strs[0]);
  }
}

TEST(SortStoreTest, SortsExactlyAsSortRows) {
  const auto in = batches(2, {4000, 4000, 3000});
  SortStore store({DataType::varchar(), DataType::bigint(), DataType::float64()});
  std::vector<ColumnVector> all(3);
  for (size_t c = 0; c < 3; ++c) all[c].type = in[0].columns[c].type;
  for (const Batch& b : in) {
    store.append(b);
    for (size_t c = 0; c < 3; ++c) all[c].append_all(b.columns[c]);
  }
  const std::vector<std::vector<SortKey>> orders = {
      {{0, true, false}},                    // strings: empty ones, long common prefixes (> 64 bytes), NULLS LAST
      {{0, false, true}, {1, true, false}},  // DESC NULLS FIRST, then ints
      {{1, true, true}},                     // many ties: input order decides
      {{1, false, false}, {0, true, true}, {2, false, false}}};
  for (const auto& keys : orders) {
    std::vector<uint32_t> want(store.rows()), got(store.rows());
    std::iota(want.begin(), want.end(), 0u);
    std::iota(got.begin(), got.end(), 0u);
    sort_rows(all, keys, want);
    sort_store_rows(store, keys, got);
    EXPECT_EQ(got, want);
  }
}

}  // namespace
}  // namespace hindsight
