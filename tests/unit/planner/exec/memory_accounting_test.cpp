// What operators charge the memory budget is what they hold in allocated memory: buffer
// capacities (an accumulation grows by doubling) and the heap block of every long string, not
// only the bytes of the data. Charging the data alone let a sort use twice what it was charged.
#include <gtest/gtest.h>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/exec/memory_tracker.hpp"

namespace hindsight {
namespace {

Batch strings_batch(size_t rows, size_t length) {
  Batch b;
  b.columns.emplace_back(DataType::varchar());
  b.columns.emplace_back(DataType::bigint());
  for (size_t i = 0; i < rows; ++i) {
    b.columns[0].append_string(std::string(length, static_cast<char>('a' + i % 26)));
    b.columns[1].append_int(static_cast<int64_t>(i));
  }
  b.rows = rows;
  return b;
}

TEST(MemoryAccountingTest, AllocatedBytesCountCapacityAndTheHeapBlockOfLongStrings) {
  Batch b = strings_batch(1000, 40);
  const ColumnVector& s = b.columns[0];
  // 40 characters: a heap block of at least 41 bytes plus the allocator's header.
  EXPECT_GE(s.string_heap_bytes(), 1000u * 48);
  EXPECT_GE(s.allocated_bytes(), s.strs.capacity() * sizeof(std::string) + s.string_heap_bytes());
  EXPECT_GT(s.allocated_bytes(), s.byte_size());
  // Short strings live inside the std::string: no heap block.
  Batch small = strings_batch(100, 10);
  EXPECT_EQ(small.columns[0].string_heap_bytes(), 0u);
}

TEST(MemoryAccountingTest, AnAccumulationIsChargedWhatItGrewBy) {
  std::vector<ColumnVector> acc;
  acc.emplace_back(DataType::varchar());
  acc.emplace_back(DataType::bigint());
  int64_t charged = 0;
  for (int i = 0; i < 20; ++i) charged += append_batch_moved(acc, strings_batch(2048, 30));
  int64_t held = 0;
  for (const auto& c : acc) held += static_cast<int64_t>(c.allocated_bytes());
  EXPECT_EQ(acc[0].size(), 20u * 2048);
  // Everything the accumulation holds was charged (the moved strings' heap blocks and every growth).
  EXPECT_EQ(charged, held);
}

// Accumulating n rows in batches must reallocate O(log n) times, not once per batch: an exact reserve before
// each append moved every string already held on every batch (quadratic; 8 s of a 6 s hash join build at SF 1).
TEST(MemoryAccountingTest, AccumulatingBatchesReallocatesGeometrically) {
  std::vector<ColumnVector> acc;
  acc.emplace_back(DataType::varchar());
  acc.emplace_back(DataType::bigint());
  int reallocations = 0;
  const std::string* data = nullptr;
  for (int i = 0; i < 200; ++i) {
    append_batch_moved(acc, strings_batch(64, 5));
    if (acc[0].strs.data() != data) ++reallocations;
    data = acc[0].strs.data();
  }
  EXPECT_EQ(acc[0].size(), 200u * 64);
  EXPECT_LE(reallocations, 12);

  ColumnVector sel_acc(DataType::varchar());
  Batch src = strings_batch(64, 5);
  std::vector<uint32_t> sel(64);
  for (uint32_t k = 0; k < 64; ++k) sel[k] = k;
  reallocations = 0;
  data = nullptr;
  for (int i = 0; i < 200; ++i) {
    sel_acc.append_selected(src.columns[0], sel);
    if (sel_acc.strs.data() != data) ++reallocations;
    data = sel_acc.strs.data();
  }
  EXPECT_EQ(sel_acc.size(), 200u * 64);
  EXPECT_LE(reallocations, 12);
}

}  // namespace
}  // namespace hindsight

namespace hindsight {
namespace {

// The tracker keeps the live data next to what is charged, and the live figure of the moment the charge peaked.
TEST(MemoryAccountingTest, TrackerKeepsTheLiveBytesAtThePeak) {
  MemoryTracker t(1 << 20);
  t.charge(1000, "a", 600);
  t.charge(500, "b");  // no figure: all live
  EXPECT_EQ(t.used(), 1500);
  EXPECT_EQ(t.live(), 1100);
  EXPECT_EQ(t.live_at_peak(), 1100);
  t.add_live(200);  // filled room it had: still the peak
  EXPECT_EQ(t.live_at_peak(), 1300);
  t.release(1000, 800);
  t.charge(200, "c", 100);  // below the peak: the peak's figure stays
  EXPECT_EQ(t.peak(), 1500);
  EXPECT_EQ(t.live(), 600);
  EXPECT_EQ(t.live_at_peak(), 1300);
  EXPECT_THROW(t.charge(2 << 20, "d", 1), Error);  // refused: nothing changes
  EXPECT_EQ(t.live(), 600);
  EXPECT_EQ(t.used(), 700);
}

#if defined(__GLIBC__)
TEST(MemoryAccountingTest, TheAllocatorTakesTheSettingsThatKeepFreedMemory) {
  // mallopt says only by its result whether it took a value (older glibc versions refuse an mmap threshold above
  // 32 MB on 64-bit): a value refused would leave the allocator as it was, silently.
  EXPECT_TRUE(keep_freed_memory_for_reuse());
}
#endif

}  // namespace
}  // namespace hindsight
