#include "planner/exec/spill_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "planner/common/hashing.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;

/// Rows `from`..`to` of an (int, string, double) batch; every 7th int and every 5th string NULL, strings of
/// growing length (some longer than the inline buffer).
Batch rows(int from, int to) {
  std::vector<OptInt> k;
  std::vector<OptStr> s;
  std::vector<OptDbl> d;
  for (int i = from; i < to; ++i) {
    k.push_back(i % 7 == 0 ? std::nullopt : OptInt(i));
    s.push_back(i % 5 == 0 ? std::nullopt : OptStr(std::string(static_cast<size_t>(i % 40), 'a' + i % 26)));
    d.push_back(i * 0.5);
  }
  return make_batch({int_col(k), str_col(s), dbl_col(d)});
}

std::vector<std::string> render(const Batch& b) {
  std::vector<std::string> out;
  for (size_t r = 0; r < b.rows; ++r) {
    std::string line;
    for (auto& c : b.columns) line += (c.is_null(r) ? "NULL" : c.get(r).to_string()) + "|";
    out.push_back(line);
  }
  return out;
}

std::vector<std::string> read_all(SpillFile::Reader reader, size_t* batches = nullptr) {
  std::vector<std::string> out;
  Batch b;
  while (reader.next(b)) {
    EXPECT_LE(b.rows, kBatchSize);
    for (auto& c : b.columns) EXPECT_EQ(c.size(), b.rows);
    for (auto& line : render(b)) out.push_back(line);
    if (batches) ++*batches;
  }
  return out;
}

std::string tmp() { return std::filesystem::temp_directory_path().string(); }

TEST(SpillFileTest, RoundTripsRowsNullsAndStringsAcrossManySmallWrites) {
  Batch a = rows(0, 3000), b = rows(3000, 3100);
  SpillFile f(types_of(a), tmp(), 4096);  // a buffer far smaller than the data: many writes
  f.append(a);
  f.append(b);
  f.flush();
  EXPECT_EQ(f.rows(), 3100u);
  EXPECT_GT(f.bytes(), 3100u * 16);
  auto want = render(a);
  for (auto& line : render(b)) want.push_back(line);
  size_t batches = 0;
  EXPECT_EQ(read_all(f.reader(1024), &batches), want);
  EXPECT_GE(batches, 2u);
}

TEST(SpillFileTest, AFinishedFileIsReusedAndItsNewOwnerSeesOnlyItsOwnRows) {
  // Creating a file is an inode allocation (a third of a spilling execution's CPU at SF 0.1): a finished file's
  // descriptor is kept for the next SpillFile in the same directory, which writes it from the start. What the
  // earlier owner wrote beyond the new owner's rows must never be read.
  release_pooled_spill_files();
  ASSERT_EQ(pooled_spill_files(), 0u);
  Batch big = rows(0, 3000), small = rows(5000, 5010);
  {
    SpillFile f(types_of(big), tmp(), 4096);
    f.append(big);
    f.flush();
  }
  EXPECT_EQ(pooled_spill_files(), 1u);
  {
    SpillFile g(types_of(small), tmp(), 4096);
    EXPECT_EQ(pooled_spill_files(), 0u);  // g took it
    g.append(small);
    g.flush();
    EXPECT_EQ(read_all(g.reader(1024)), render(small));
    SpillFile empty(types_of(small), tmp(), 4096);
    EXPECT_TRUE(read_all(empty.reader(1024)).empty());
  }
  EXPECT_EQ(pooled_spill_files(), 2u);
  release_pooled_spill_files();
  EXPECT_EQ(pooled_spill_files(), 0u);
}

TEST(SpillFileTest, FilesSharingOneBackingEachReadOnlyTheirOwnInterleavedExtents) {
  // A spilling join's 17 partition files of a side share one file (one inode allocation, not 17): their chunks
  // interleave in it, and each must read back exactly its rows, in order, also once another is gone.
  release_pooled_spill_files();
  Batch a = rows(0, 2000), b = rows(2000, 2600), c = rows(4000, 4001);
  auto backing = std::make_shared<SpillBacking>(tmp());
  auto fa = std::make_unique<SpillFile>(types_of(a), backing, 1024);
  auto fb = std::make_unique<SpillFile>(types_of(b), backing, 1024);
  SpillFile fc(types_of(c), backing, 1024);
  for (int at = 0; at < 2000; at += 100) {  // small appends, each file's buffer going out between the others'
    Batch part = rows(at, at + 100);
    fa->append(part);
    if (at < 600) fb->append(rows(2000 + at, 2100 + at));
  }
  fc.append(c);
  fa->finish_writing();
  fb->finish_writing();
  fc.flush();
  EXPECT_EQ(pooled_spill_files(), 0u);  // one descriptor, held by the backing
  EXPECT_EQ(read_all(fa->reader(300)), render(a));  // a reader buffer smaller than an extent and larger than some
  EXPECT_EQ(read_all(fb->reader(64 << 10)), render(b));
  fa.reset();  // its ranges are given back; the others' stay
  EXPECT_EQ(read_all(fb->reader(777)), render(b));
  EXPECT_EQ(read_all(fc.reader(1024)), render(c));
  // Written again after finish_writing, into ranges fa gave back: new extents, read after fb's first ones.
  Batch more = rows(7000, 7400);
  fb->append(more);
  fb->flush();
  auto want = render(b);
  for (auto& line : render(more)) want.push_back(line);
  EXPECT_EQ(read_all(fb->reader(1024)), want);
  EXPECT_EQ(read_all(fc.reader(1024)), render(c));
  fb.reset();
  backing.reset();
  EXPECT_EQ(pooled_spill_files(), 0u);  // fc still holds it
}

TEST(SpillFileTest, FinishedWritingFlushesAndFreesTheWriteBufferUntilTheNextAppend) {
  Batch a = rows(0, 500);
  SpillFile f(types_of(a), tmp(), 64 << 10);  // the rows stay in the buffer until it finishes writing
  f.append(a);
  EXPECT_EQ(f.buffer_capacity(), 64u << 10);
  f.finish_writing();
  EXPECT_EQ(f.buffer_capacity(), 0u);
  EXPECT_EQ(read_all(f.reader(1024)), render(a));
  f.append(a);
  EXPECT_EQ(f.buffer_capacity(), 64u << 10);
}

TEST(SpillFileTest, SelectedRowsOnlyAndAColumnWhoseNullsStartLater) {
  Batch a = rows(1, 7);  // no NULL int (1..6), strings: row 5 NULL
  Batch b = rows(7, 15);  // int 7 and 14 NULL
  std::vector<uint32_t> sel = {0, 2, 4};
  SpillFile f(types_of(a), tmp(), 1 << 16);
  f.append(a, sel.data(), sel.size());
  f.append(b);
  f.flush();
  auto got = read_all(f.reader(1 << 16));
  auto ra = render(a), rb = render(b);
  std::vector<std::string> want = {ra[0], ra[2], ra[4]};
  want.insert(want.end(), rb.begin(), rb.end());
  EXPECT_EQ(got, want);
}

TEST(SpillFileTest, TwoReadersReadTheSameFileIndependently) {
  Batch a = rows(0, 5000);
  SpillFile f(types_of(a), tmp(), 8192);
  f.append(a);
  f.flush();
  auto r1 = f.reader(4096), r2 = f.reader(100000);
  Batch x, y;
  ASSERT_TRUE(r1.next(x));
  ASSERT_TRUE(r2.next(y));
  EXPECT_EQ(render(x).front(), render(y).front());
  EXPECT_EQ(read_all(f.reader(4096)).size(), 5000u);
}

TEST(SpillFileTest, UnflushedRowsAreNotSeenAndAnEmptyFileReadsNothing) {
  Batch a = rows(0, 10);
  SpillFile f(types_of(a), tmp(), 1 << 16);
  Batch out;
  EXPECT_FALSE(f.reader(4096).next(out));
  f.append(a);
  EXPECT_FALSE(f.reader(4096).next(out));  // still in the write buffer
  f.flush();
  EXPECT_EQ(read_all(f.reader(4096)).size(), 10u);
}

TEST(SpillFileTest, FinishedWritingKeepsEverythingReadableAndALaterAppendStillWorks) {
  Batch a = rows(0, 100), b = rows(100, 150);
  SpillFile f(types_of(a), tmp(), 1 << 16);
  f.append(a);  // all of it still in the buffer
  f.finish_writing();
  EXPECT_EQ(read_all(f.reader(4096)), render(a));
  f.append(b);
  f.finish_writing();
  auto want = render(a);
  for (auto& line : render(b)) want.push_back(line);
  EXPECT_EQ(read_all(f.reader(4096)), want);
  EXPECT_EQ(f.rows(), 150u);
}

TEST(SpillFileTest, AMissingDirectoryIsAnIoErrorNamingIt) {
  try {
    SpillFile f({DataType::bigint()}, "/nonexistent-hindsight-dir", 4096);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::IO_ERROR);
    EXPECT_NE(std::string(e.what()).find("/nonexistent-hindsight-dir"), std::string::npos) << e.what();
  }
}

TEST(SpillFileTest, PartitionsSpreadRowsThatShareTheirLowBitsAndSplitAgainAtTheNextLevel) {
  // Rows one worker receives from a repartition share hash % workers: they must still spread.
  std::map<int, int> level0;
  std::map<int, int> level1_of_part0;
  int n = 0;
  for (int64_t v = 0; n < 16000; ++v) {
    uint64_t h = hash_int64(v);
    if (h % 4 != 1) continue;
    ++n;
    int p = spill_partition_of(h, 0, 16);
    ++level0[p];
    if (p == 0) ++level1_of_part0[spill_partition_of(h, 1, 16)];
  }
  ASSERT_EQ(level0.size(), 16u);
  for (auto& [p, c] : level0) EXPECT_NEAR(c, 1000, 200) << "partition " << p;
  EXPECT_EQ(level1_of_part0.size(), 16u);
}

TEST(SpillFileTest, BufferSizeIsAShareOfTheLimitWithinBounds) {
  EXPECT_EQ(spill_buffer_bytes(1 << 20, 16), 4u << 10);
  EXPECT_EQ(spill_buffer_bytes(int64_t{8} << 30, 16), 64u << 10);
  EXPECT_EQ(spill_buffer_bytes(int64_t{64} << 20, 16), 64u << 10);
  EXPECT_EQ(spill_buffer_bytes(int64_t{16} << 20, 16), 16u << 10);
}

TEST(SpillFileTest, BufferFloorIsSmallerUnderSmallLimits) {
  // Under 1 MB the 4 KB floor gives way to limit / 256, down to kSpillMinBufferBytes.
  EXPECT_EQ(spill_buffer_bytes(512 << 10, 16), 2u << 10);
  EXPECT_EQ(spill_buffer_bytes(100 << 10, 16), 400u);
  EXPECT_EQ(spill_buffer_bytes(16 << 10, 16), kSpillMinBufferBytes);
  EXPECT_EQ(spill_buffer_bytes(1000, 1), kSpillMinBufferBytes);
}

TEST(MemoryTrackerTest, SpillReserveIsForSpillBuffersOnly) {
  MemoryTracker m(1000);
  m.set_spill_reserve(200);
  EXPECT_TRUE(m.try_charge(700, 700));
  EXPECT_FALSE(m.try_charge(150, 150));  // would reach into the reserve: data stops at 800
  EXPECT_EQ(m.used(), 700);
  EXPECT_TRUE(m.try_charge_spill_buffers(150, 150));  // buffers may use it
  EXPECT_FALSE(m.try_charge_spill_buffers(151, 151));  // but not past the limit
  m.charge(150, "Op#1 (worker 0)");  // a charge that cannot be refused goes to the limit
  EXPECT_EQ(m.used(), 1000);
  EXPECT_THROW(m.charge(1, "Op#1 (worker 0)"), Error);
  m.release(1000);
  m.set_spill_reserve(0);
  EXPECT_TRUE(m.try_charge(1000, 1000));
}

TEST(MemoryTrackerTest, SpillReserveIsAnEighthOrMoreUnderSmallLimits) {
  EXPECT_EQ(spill_reserve_for(int64_t{80} << 20, 4), int64_t{10} << 20);       // an eighth
  EXPECT_EQ(spill_reserve_for(int64_t{1} << 40, 4), int64_t{64} << 20);        // at most 64 MB
  EXPECT_EQ(spill_reserve_for(int64_t{512} << 10, 4), int64_t{128} << 10);     // 32 KB a worker
  EXPECT_EQ(spill_reserve_for(int64_t{100} << 10, 4), int64_t{25} << 10);      // at most a quarter
}

TEST(MemoryTrackerTest, TryChargeRefusesWithoutThrowingOrCharging) {
  MemoryTracker m(1000);
  EXPECT_TRUE(m.try_charge(600, 600));
  EXPECT_FALSE(m.try_charge(500, 500));
  EXPECT_EQ(m.used(), 600);
  EXPECT_EQ(m.live(), 600);
  EXPECT_THROW(m.charge(500, "X"), Error);
  EXPECT_EQ(m.used(), 600);
  EXPECT_TRUE(m.try_charge(400, 0));
  EXPECT_EQ(m.peak(), 1000);
}

}  // namespace
}  // namespace hindsight
