#pragma once
#include <atomic>
#include <cstdint>
#include <string>

namespace hindsight {

/// The per-query memory budget. Hash tables, sort buffers and exchange buffers charge it; a charge
/// that would exceed the limit throws MEMORY_LIMIT_EXCEEDED naming the operator. Thread-safe.
///
/// Two figures are kept side by side:
/// - charged (`used`, `peak`): what the buffers *allocate* — vector capacities, the allocator's blocks of
///   long strings. What the limit is checked against and what EXPLAIN ANALYZE reports as memory.
/// - live (`live`, `live_at_peak`): the bytes of data those buffers really hold — column values' sizes
///   (ColumnVector::byte_size), string bytes, the used part of hash arrays, group states. Each charge says
///   how much live data it adds (by default all of it: a charge with no figure is taken as fully used,
///   as the table loads and the query result are). charged / live is the overhead of the representation's
///   slack (growth, capacities, allocator rounding); the goal is at most 2.
class MemoryTracker {
 public:
  explicit MemoryTracker(int64_t limit_bytes) : limit_(limit_bytes) {}
  /// Charges `bytes` on behalf of `op_label` (e.g. "HashJoinBuild#7 (worker 2)"), all of it live.
  void charge(int64_t bytes, const std::string& op_label) { charge(bytes, op_label, bytes); }
  /// Charges `bytes` of which `live_delta` are live data (the live figure may also shrink: < 0).
  void charge(int64_t bytes, const std::string& op_label, int64_t live_delta);
  /// As charge(), but returns false instead of throwing when the limit would be exceeded (nothing is
  /// charged then): an operator that can spill asks this and writes to disk when it gets false. The
  /// spill reserve (set_spill_reserve) is not for these charges: they are refused once they would reach
  /// into it.
  bool try_charge(int64_t bytes, int64_t live_delta);
  /// As try_charge(), for the buffers of spill files (write and read buffers): these may use the spill
  /// reserve, up to the limit. So that an operator that starts spilling finds room for its buffers even
  /// when the data of the query's other operators (which stop at limit - reserve) fill what they may.
  bool try_charge_spill_buffers(int64_t bytes, int64_t live_delta) { return try_charge_upto(bytes, live_delta, limit_); }
  /// Keeps `bytes` of the limit for spill-file buffers: try_charge (the charges spilling operators may be
  /// refused, i.e. their data) stops at limit - reserve; charge() and try_charge_spill_buffers go to the
  /// limit. 0 (the default, and with spilling off): every charge goes to the limit.
  /// May be called while workers charge (spilling in place turns it on mid-attempt).
  void set_spill_reserve(int64_t bytes) {
    reserve_.store(bytes < 0 ? 0 : (bytes > limit_ ? limit_ : bytes), std::memory_order_relaxed);
  }
  int64_t spill_reserve() const { return reserve_.load(std::memory_order_relaxed); }
  /// Fail early (`reexec_fail_early`, docs/reexec.md): the re-execution driver arms it for an attempt it will
  /// answer after MEMORY_LIMIT_EXCEEDED. Operators whose memory grows with their input then fail as soon as
  /// what they hold, extrapolated to their whole input, would exceed the limit (ExecOperator::fail_early_if_over),
  /// instead of doing most of the work first. Off by default: without another attempt to come, a query only
  /// fails on what it really needs.
  void set_fail_early(bool on) { fail_early_.store(on, std::memory_order_relaxed); }
  bool fail_early() const { return fail_early_.load(std::memory_order_relaxed); }
  void release(int64_t bytes) { release(bytes, bytes); }
  void release(int64_t bytes, int64_t live_delta) {
    used_.fetch_sub(bytes, std::memory_order_relaxed);
    live_.fetch_sub(live_delta, std::memory_order_relaxed);
  }
  /// Live data changed with no change of what is charged (the buffers had room).
  void add_live(int64_t live_delta);
  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_; }
  int64_t live() const { return live_.load(std::memory_order_relaxed); }
  /// The live bytes when the charged figure reached its peak (approximate while workers run concurrently:
  /// the live figure of a charge lands right after it).
  int64_t live_at_peak() const { return live_at_peak_.load(std::memory_order_relaxed); }

 private:
  bool try_charge_upto(int64_t bytes, int64_t live_delta, int64_t cap);

  int64_t limit_;
  std::atomic<int64_t> reserve_{0};
  std::atomic<bool> fail_early_{false};
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
  std::atomic<int64_t> live_{0};
  std::atomic<int64_t> live_at_peak_{0};
};

/// The spill reserve of a query with spilling on under memory limit `limit` at `workers` workers: an eighth
/// of the limit, at most 64 MB (spill_buffer_bytes gives an operator's files a 64th of the limit, at most
/// 64 KB a file, so that this holds the buffers of several spilling operators at once); under small limits,
/// where the buffers' floors (kSpillMinBufferBytes, spill_buffer_bytes' floor) weigh more, up to a quarter
/// of the limit, for 32 KB a worker (a join's 17 write buffers a side and a reader of 256 B to 1 KB each).
int64_t spill_reserve_for(int64_t limit, int workers);

/// The process's allocator (glibc malloc), set once at start-up by the CLI: blocks up to 32 MB (the most older glibc
/// versions accept) come from the heap rather than from mmap, and freed memory stays in the process up to 1 GB instead of
/// going back to the kernel. The executor frees and allocates the same large buffers over and over (a spilled
/// join's table per partition, each batch's arrays, growing columns); returned to the kernel, every reuse faulted
/// its pages in again, zeroed. What the memory limit counts is unchanged: it is the tracker's, not the process's.
/// Returns whether the allocator took both settings (false elsewhere than glibc).
bool keep_freed_memory_for_reuse();

/// Parses "256MB", "1GB", "512 KB", "1000" (bytes). Units B, KB, MB, GB, TB (powers of 1024),
/// case-insensitive. Returns false on malformed text.
bool parse_byte_size(const std::string& text, int64_t& bytes);
/// 1.9 GB, 12.0 MB, 512 B
std::string format_bytes(int64_t bytes);

/// Gives the heap's free pages back to the system (glibc: malloc_trim; elsewhere nothing). Memory freed by threads
/// that no longer allocate stays in their heaps otherwise: SortOp's consumed batches while it spills, a failed
/// attempt's buffers before the next attempt (the re-execution driver).
void trim_free_heap();

}  // namespace hindsight
