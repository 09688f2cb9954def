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
  for (size_t k = 0; k < sel.size(); ++k) {
    if (!moved.columns[0].is_null(k)) {
      EXPECT_EQ(moved.columns[0].strs[k].data(), heap[k]) << k;
    }
  }
}

// A repartition appends each consumer's rows to its pending batch: appending moved rows after rows already there
// keeps the NULL mask aligned whether the destination, the source or neither has one.
TEST(BatchGatherTest, AppendSelectedMovedAppendsAfterExistingRows) {
  Batch src = mixed_batch();
  ColumnVector dst(DataType::varchar());
  dst.append_string("first");
  dst.append_string(std::string(40, 'z'));
  const std::vector<uint32_t> sel = {1, 3, 4, 10};  // row 3 is NULL
  ColumnVector expected = dst;
  expected.append_selected(src.columns[0], sel);
  append_selected_moved(dst, src.columns[0], sel);
  ASSERT_EQ(dst.size(), 6u);
  EXPECT_EQ(dst.strs, expected.strs);
  EXPECT_EQ(dst.nulls, expected.nulls);
  EXPECT_TRUE(dst.is_null(3));
  EXPECT_FALSE(dst.is_null(1));

  ColumnVector ints(DataType::bigint());
  append_selected_moved(ints, src.columns[1], sel);  // non-string columns are copied as append_selected does
  ColumnVector ints_expected(DataType::bigint());
  ints_expected.append_selected(src.columns[1], sel);
  EXPECT_EQ(ints.ints, ints_expected.ints);
  EXPECT_EQ(ints.nulls, ints_expected.nulls);
}

}  // namespace
}  // namespace hindsight
