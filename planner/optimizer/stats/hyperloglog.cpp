#include "planner/optimizer/stats/hyperloglog.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace hindsight {

void HyperLogLog::add_hash(uint64_t hash) {
  const uint64_t index = hash >> (64 - kPrecision);
  // Rank = position of the first 1-bit in the remaining 52 bits (1-based); a sentinel bit bounds it at 53.
  const uint64_t rest = (hash << kPrecision) | (uint64_t{1} << (kPrecision - 1));
  const auto rank = static_cast<uint8_t>(std::countl_zero(rest) + 1);
  if (rank > registers_[index]) registers_[index] = rank;
}

void HyperLogLog::add_double(double v) {
  if (v == 0.0) v = 0.0;  // fold -0.0 into +0.0
  int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  add_int64(bits);
}

void HyperLogLog::merge(const HyperLogLog& other) {
  for (int i = 0; i < kRegisters; ++i) registers_[i] = std::max(registers_[i], other.registers_[i]);
}

bool HyperLogLog::empty() const {
  return std::all_of(registers_.begin(), registers_.end(), [](uint8_t r) { return r == 0; });
}

namespace {

// sigma and tau of Ertl's improved estimator ("New cardinality estimation algorithms for HyperLogLog sketches",
// 2017); both series converge when their partial sums stop changing in double precision.
double ertl_sigma(double x) {
  if (x == 1.0) return std::numeric_limits<double>::infinity();
  double y = 1.0;
  double z = x;
  for (;;) {
    x *= x;
    const double previous = z;
    z += x * y;
    y += y;
    if (z == previous) return z;
  }
}

double ertl_tau(double x) {
  if (x == 0.0 || x == 1.0) return 0.0;
  double y = 1.0;
  double z = 1.0 - x;
  for (;;) {
    x = std::sqrt(x);
    const double previous = z;
    y *= 0.5;
    z -= (1.0 - x) * (1.0 - x) * y;
    if (z == previous) return z / 3.0;
  }
}

}  // namespace

double HyperLogLog::estimate() const {
  // Register histogram: how many registers hold each rank 0..q+1 (q = 64 - precision hash bits per register).
  constexpr int q = 64 - kPrecision;
  std::array<int, q + 2> histogram{};
  for (uint8_t r : registers_) ++histogram[r];
  constexpr double m = kRegisters;
  if (histogram[0] == kRegisters) return 0.0;
  // Ertl's estimator in Horner form: unbiased over the whole range, so neither linear counting nor empirical bias
  // tables are needed.
  double z = m * ertl_tau(1.0 - histogram[q + 1] / m);
  for (int k = q; k >= 1; --k) z = 0.5 * (z + histogram[k]);
  z += m * ertl_sigma(histogram[0] / m);
  const double alpha_infinity = 0.5 / std::log(2.0);
  return alpha_infinity * m * m / z;
}

}  // namespace hindsight
