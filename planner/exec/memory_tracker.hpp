#pragma once
#include <atomic>
#include <cstdint>
#include <string>

namespace hindsight {

/// The per-query memory budget. Hash tables, sort buffers and exchange buffers charge it; a charge
/// that would exceed the limit throws MEMORY_LIMIT_EXCEEDED naming the operator. Thread-safe.
class MemoryTracker {
 public:
  explicit MemoryTracker(int64_t limit_bytes) : limit_(limit_bytes) {}
  /// Charges `bytes` on behalf of `op_label` (e.g. "HashJoinBuild#7 (worker 2)").
  void charge(int64_t bytes, const std::string& op_label);
  void release(int64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_; }

 private:
  int64_t limit_;
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
};

/// Parses "256MB", "1GB", "512 KB", "1000" (bytes). Units B, KB, MB, GB, TB (powers of 1024),
/// case-insensitive. Returns false on malformed text.
bool parse_byte_size(const std::string& text, int64_t& bytes);
/// 1.9 GB, 12.0 MB, 512 B
std::string format_bytes(int64_t bytes);

}  // namespace hindsight
