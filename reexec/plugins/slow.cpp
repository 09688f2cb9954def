// slow: an attempt that ran much longer than its cost predicts (reexec_slow_factor x the predicted
// time), or longer than a fixed reexec_slow_ms, is handled like a misestimate (replan_gain.hpp).
#include <fmt/format.h>

#include "reexec/plugins/plugins.hpp"
#include "reexec/plugins/replan_gain.hpp"

namespace hindsight::reexec {

namespace {
class SlowPlugin final : public ReplanForGainPlugin {
 public:
  /// Below this an attempt is never slow by the factor: scheduling noise on a busy machine is larger
  /// than what a small query's cost predicts (a fixed reexec_slow_ms is taken as given).
  static constexpr double kMinSlowMs = 100;

  const char* name() const noexcept override { return "slow"; }

 protected:
  std::optional<std::string> trigger(const AttemptOutcome& o) const override {
    const Settings& s = *settings_;
    if (s.reexec_slow_ms >= 0) {
      if (!(o.elapsed_ms > static_cast<double>(s.reexec_slow_ms))) return std::nullopt;
      return fmt::format("elapsed {:.0f} ms > reexec_slow_ms ({} ms)", o.elapsed_ms, s.reexec_slow_ms);
    }
    if (s.reexec_slow_factor <= 0) return std::nullopt;
    const double predicted = predicted_ms(*o.plan, s.effective_workers());
    if (!(o.elapsed_ms > s.reexec_slow_factor * predicted && o.elapsed_ms > kMinSlowMs)) return std::nullopt;
    return fmt::format("elapsed {:.0f} ms > {:g} x {:.1f} ms its cost predicts (reexec_slow_factor)", o.elapsed_ms,
                       s.reexec_slow_factor, predicted);
  }
};
}  // namespace

std::unique_ptr<Plugin> make_slow_plugin() { return std::make_unique<SlowPlugin>(); }

}  // namespace hindsight::reexec
