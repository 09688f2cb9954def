#pragma once
#include <cstdint>
#include <random>
#include <vector>

namespace hindsight::tpch {

/// SplitMix64 finaliser: derives independent seeds from (seed, stream, chunk).
inline uint64_t mix_seed(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline uint64_t derive_seed(uint64_t seed, uint64_t stream, uint64_t chunk) {
  return mix_seed(mix_seed(mix_seed(seed) ^ stream) ^ chunk);
}

/// A seeded generator with the draws the generator needs. Results depend only on the seed (no
/// std::uniform_int_distribution, whose algorithm is implementation-defined).
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint64_t next() { return gen_(); }
  /// Uniform in [lo, hi] (inclusive).
  int64_t uniform(int64_t lo, int64_t hi) {
    auto range = static_cast<uint64_t>(hi - lo) + 1;
    auto scaled = static_cast<unsigned __int128>(gen_()) * range;
    return lo + static_cast<int64_t>(static_cast<uint64_t>(scaled >> 64));
  }
  /// Uniform in [0, 1).
  double unit() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }

 private:
  std::mt19937_64 gen_;
};

/// Zipf(z) over ranks [0, n): P(rank k) proportional to 1 / (k + 1)^z, sampled by binary search in a CDF table.
class ZipfSampler {
 public:
  ZipfSampler(uint64_t n, double z);
  uint64_t rank(Rng& rng) const;
  uint64_t size() const { return cdf_.size(); }

 private:
  std::vector<double> cdf_;
};

/// A bijection of [0, n) (multiplication by a unit mod n), so that Zipf's hot ranks land on scattered keys
/// rather than on the smallest ones.
class KeyScrambler {
 public:
  explicit KeyScrambler(uint64_t n);
  uint64_t operator()(uint64_t rank) const {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(rank) * mult_ % n_);
  }

 private:
  uint64_t n_;
  uint64_t mult_;
};

}  // namespace hindsight::tpch
