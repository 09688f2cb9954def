#include "planner/exec/memory_tracker.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "planner/common/error.hpp"

namespace hindsight {

void MemoryTracker::charge(int64_t bytes, const std::string& op_label, int64_t live_delta) {
  if (!try_charge_upto(bytes, live_delta, limit_)) {
    const int64_t now = used() + bytes;
    throw Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
                fmt::format("{} needs {} more while {} are in use: {} > limit {}", op_label, format_bytes(bytes),
                            format_bytes(now - bytes), format_bytes(now), format_bytes(limit_)));
  }
}

bool MemoryTracker::try_charge(int64_t bytes, int64_t live_delta) {
  return try_charge_upto(bytes, live_delta, limit_ - reserve_.load(std::memory_order_relaxed));
}

bool MemoryTracker::try_charge_upto(int64_t bytes, int64_t live_delta, int64_t cap) {
  int64_t now = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (now > cap) {
    used_.fetch_sub(bytes, std::memory_order_relaxed);
    return false;
  }
  const int64_t live = live_.fetch_add(live_delta, std::memory_order_relaxed) + live_delta;
  int64_t p = peak_.load(std::memory_order_relaxed);
  bool at_peak = false;
  while (now >= p && !(at_peak = peak_.compare_exchange_weak(p, now, std::memory_order_relaxed))) {
  }
  if (at_peak) live_at_peak_.store(live, std::memory_order_relaxed);
  return true;
}

void MemoryTracker::add_live(int64_t live_delta) {
  const int64_t live = live_.fetch_add(live_delta, std::memory_order_relaxed) + live_delta;
  // Still at the peak (nothing charged since): the live figure of the peak is this one.
  if (used_.load(std::memory_order_relaxed) == peak_.load(std::memory_order_relaxed))
    live_at_peak_.store(live, std::memory_order_relaxed);
}

bool keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  // Setting either turns glibc's dynamic threshold off, which would otherwise raise the mmap threshold only up to
  // the size of blocks freed so far and trim the heap at twice that.
  constexpr int kHeapBlocksUpTo = 32 << 20, kKeepFreedUpTo = 1 << 30;
  return mallopt(M_MMAP_THRESHOLD, kHeapBlocksUpTo) == 1 && mallopt(M_TRIM_THRESHOLD, kKeepFreedUpTo) == 1;
#else
  return false;
#endif
}

int64_t spill_reserve_for(int64_t limit, int workers) {
  const int64_t small = std::min<int64_t>(limit / 4, int64_t{32 << 10} * std::max(workers, 1));
  return std::min<int64_t>(std::max(limit / 8, small), int64_t{64} << 20);
}

bool parse_byte_size(const std::string& text, int64_t& bytes) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  size_t start = i;
  double number = 0;
  bool dot = false;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || (text[i] == '.' && !dot))) {
    dot |= text[i] == '.';
    ++i;
  }
  if (i == start) return false;
  try {
    number = std::stod(text.substr(start, i - start));
  } catch (...) {
    return false;
  }
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit;
  for (; i < text.size(); ++i)
    if (!std::isspace(static_cast<unsigned char>(text[i]))) unit += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
  double mult;
  if (unit.empty() || unit == "B") mult = 1;
  else if (unit == "KB" || unit == "K") mult = 1024.0;
  else if (unit == "MB" || unit == "M") mult = 1024.0 * 1024;
  else if (unit == "GB" || unit == "G") mult = 1024.0 * 1024 * 1024;
  else if (unit == "TB" || unit == "T") mult = 1024.0 * 1024 * 1024 * 1024;
  else return false;
  double v = number * mult;
  if (v < 0 || v > 9.0e18) return false;
  bytes = static_cast<int64_t>(v);
  return true;
}

std::string format_bytes(int64_t b) {
  double v = static_cast<double>(b);
  if (b >= (1LL << 30)) return fmt::format("{:.1f} GB", v / (1LL << 30));
  if (b >= (1LL << 20)) return fmt::format("{:.1f} MB", v / (1LL << 20));
  if (b >= (1LL << 10)) return fmt::format("{:.1f} KB", v / (1LL << 10));
  return fmt::format("{} B", b);
}

void trim_free_heap() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

}  // namespace hindsight
