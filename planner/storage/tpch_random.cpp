#include "planner/storage/tpch_random.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hindsight::tpch {

ZipfSampler::ZipfSampler(uint64_t n, double z) : cdf_(std::max<uint64_t>(n, 1)) {
  double sum = 0;
  for (uint64_t k = 0; k < cdf_.size(); ++k) {
    sum += 1.0 / std::pow(static_cast<double>(k + 1), z);
    cdf_[k] = sum;
  }
  for (auto& c : cdf_) c /= sum;
  cdf_.back() = 1.0;
}

uint64_t ZipfSampler::rank(Rng& rng) const {
  double u = rng.unit();
  auto it = std::upper_bound(cdf_.begin(), cdf_.end(), u);
  if (it == cdf_.end()) --it;
  return static_cast<uint64_t>(it - cdf_.begin());
}

KeyScrambler::KeyScrambler(uint64_t n) : n_(std::max<uint64_t>(n, 1)) {
  mult_ = 2654435761ULL % n_;
  if (mult_ == 0) mult_ = 1;
  while (std::gcd(mult_, n_) != 1) mult_ = mult_ + 1 == n_ ? 1 : mult_ + 1;
}

}  // namespace hindsight::tpch
