// gather_batch_moved is gather_batch for a source about to be discarded (a filter's input, a scan's scratch
// slice): same rows, types and NULLs, but the selected strings change hands instead of being copied.
#include <gtest/gtest.h>

#include "planner/exec/batch_gather.hpp"

namespace hindsight {
namespace {

Batch mixed_batch() {
  Batch b;
  b.columns.emplace_back(DataType::varchar());
  b.columns.emplace_back(DataType::bigint());
  b.columns.emplace_back(DataType::float64());
  for (int i = 0; i < 50; ++i) {
    if (i % 7 == 3) b.columns[0].append_null();
    else b.columns[0].append_string(std::string(30 + i % 5, static_cast<char>('a' + i % 26)));
    if (i % 5 == 1) b.columns[1].append_null();
    else b.columns[1].append_int(i * 3);
    b.columns[2].append_double(i * 0.5);
  }
  b.rows = 50;
  return b;
}

TEST(BatchGatherTest, MovedGatherEqualsCopyingGatherAndMovesTheStrings) {
  const std::vector<uint32_t> sel = {0, 2, 3, 9, 10, 17, 24, 31, 49};
  Batch src = mixed_batch();
  Batch copied;
  gather_batch(src, sel, copied);
  std::vector<const char*> heap;
  for (uint32_t r : sel) heap.push_back(src.columns[0].strs[r].data());

  Batch moved;
  gather_batch_moved(src, sel, moved);
  ASSERT_EQ(moved.rows, sel.size());
  ASSERT_EQ(moved.columns.size(), copied.columns.size());
  for (size_t c = 0; c < moved.columns.size(); ++c) {
    EXPECT_EQ(moved.columns[c].type, copied.columns[c].type);
    ASSERT_EQ(moved.columns[c].size(), sel.size());
    EXPECT_EQ(moved.columns[c].nulls, copied.columns[c].nulls) << "column " << c;
    for (size_t k = 0; k < sel.size(); ++k)
      EXPECT_EQ(moved.columns[c].get(k).to_string(), copied.columns[c].get(k).to_string()) << c << "," << k;
  }
  // The 30+ character strings were moved, not copied: the output owns the source's heap blocks.
  for (size_t k = 0; k < sel.size(); ++k)
    if (!moved.columns[0].is_null(k)) EXPECT_EQ(moved.columns[0].strs[k].data(), heap[k]) << k;
}

}  // namespace
}  // namespace hindsight
