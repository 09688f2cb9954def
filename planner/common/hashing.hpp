#pragma once
#include <cstdint>
#include <string_view>

namespace hindsight {

/// Hashes used for bucketing and hash repartitioning. Storage and exchanges must agree so that a
/// repartitioned stream and a table hashed on the same columns land rows on the same worker.
inline uint64_t hash_int64(int64_t v) {
  uint64_t x = static_cast<uint64_t>(v);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}
inline uint64_t hash_bytes(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a, then a final mix
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return hash_int64(static_cast<int64_t>(h));
}
inline uint64_t hash_combine(uint64_t seed, uint64_t h) {
  return seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}
constexpr uint64_t kNullHash = 0x5bd1e9955bd1e995ULL;
inline int bucket_of(uint64_t hash, int buckets) { return static_cast<int>(hash % static_cast<uint64_t>(buckets)); }

}  // namespace hindsight
