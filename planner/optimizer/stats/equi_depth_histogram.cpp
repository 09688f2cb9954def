#include "planner/optimizer/stats/equi_depth_histogram.hpp"

#include <fmt/format.h>

namespace hindsight {

double EquiDepthHistogram::total() const {
  double t = 0;
  for (const auto& b : buckets) t += b.count;
  return t;
}

std::string EquiDepthHistogram::to_string() const {
  std::string out;
  for (const auto& b : buckets) {
    out += fmt::format("[{}, {}] {}/{}\n", b.lower.to_sql(), b.upper.to_sql(), b.count, b.distinct);
  }
  return out;
}

std::vector<HistogramCut> equi_depth_cuts(const std::vector<uint64_t>& run_counts, size_t max_buckets) {
  std::vector<HistogramCut> cuts;
  if (run_counts.empty() || max_buckets == 0) return cuts;
  uint64_t remaining = 0;
  for (uint64_t c : run_counts) remaining += c;
  size_t first = 0;
  uint64_t in_bucket = 0;
  for (size_t r = 0; r < run_counts.size(); ++r) {
    in_bucket += run_counts[r];
    const size_t buckets_left = max_buckets - cuts.size();
    // The target depth is recomputed from what is left, so one heavy run does not starve the later buckets.
    const double target = static_cast<double>(remaining) / static_cast<double>(buckets_left);
    const bool last_run = r + 1 == run_counts.size();
    if (last_run || (buckets_left > 1 && static_cast<double>(in_bucket) >= target)) {
      cuts.push_back({first, r});
      remaining -= in_bucket;
      in_bucket = 0;
      first = r + 1;
    }
  }
  return cuts;
}

}  // namespace hindsight
