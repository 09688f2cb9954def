#include "planner/exec/fragment_order.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "planner/common/error.hpp"

namespace hindsight {

namespace {

class FrugalOrder {
 public:
  FrugalOrder(const std::vector<std::vector<size_t>>& inputs, const std::vector<FragmentFootprint>& footprints)
      : inputs_(inputs), footprints_(footprints), state_(inputs.size(), 0), peak_(inputs.size(), 0),
        residual_(inputs.size(), 0), sorted_(inputs.size()) {
    HS_ASSERT(footprints.empty() || footprints.size() == inputs.size(), "one footprint per fragment");
    for (const auto& in : inputs)
      for (size_t d : in) HS_ASSERT(d < inputs.size(), fmt::format("unknown input fragment {}", d));
  }

  std::vector<size_t> run() {
    for (size_t i = 0; i < inputs_.size(); ++i) measure(i);
    std::vector<bool> read(inputs_.size(), false);
    for (const auto& in : inputs_)
      for (size_t d : in) read[d] = true;
    std::vector<bool> done(inputs_.size(), false);
    std::vector<size_t> order;
    order.reserve(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i)
      if (!read[i]) emit(i, done, order);
    HS_ASSERT(order.size() == inputs_.size(), "fragment dependencies form a cycle");
    return order;
  }

 private:
  FragmentFootprint fp(size_t i) const { return footprints_.empty() ? FragmentFootprint{} : footprints_[i]; }

  /// The peak of i's subtree with its inputs in the frugal order, and what the subtree holds once i has run.
  void measure(size_t i) {
    if (state_[i] == 2) return;
    HS_ASSERT(state_[i] == 0, "fragment dependencies form a cycle");
    state_[i] = 1;
    std::vector<size_t>& in = sorted_[i];
    in = inputs_[i];
    for (size_t d : in) measure(d);
    std::stable_sort(in.begin(), in.end(),
                     [&](size_t a, size_t b) { return peak_[a] - residual_[a] > peak_[b] - residual_[b]; });
    double held = 0, peak = 0, drained = 0;
    for (size_t d : in) {
      peak = std::max(peak, held + peak_[d]);
      held += residual_[d];
      if (!fp(d).kept) drained += fp(d).output;
    }
    peak_[i] = std::max(peak, held + fp(i).run);
    residual_[i] = held - drained + fp(i).output;
    state_[i] = 2;
  }

  void emit(size_t i, std::vector<bool>& done, std::vector<size_t>& order) const {
    if (done[i]) return;
    done[i] = true;
    for (size_t d : sorted_[i]) emit(d, done, order);
    order.push_back(i);
  }

  const std::vector<std::vector<size_t>>& inputs_;
  const std::vector<FragmentFootprint>& footprints_;
  std::vector<int> state_;  ///< 0 not measured, 1 being measured, 2 measured
  std::vector<double> peak_, residual_;
  std::vector<std::vector<size_t>> sorted_;  ///< inputs in the order they run
};

}  // namespace

std::vector<size_t> memory_frugal_order(const std::vector<std::vector<size_t>>& inputs,
                                        const std::vector<FragmentFootprint>& footprints) {
  return FrugalOrder(inputs, footprints).run();
}

}  // namespace hindsight
