#pragma once
// What misestimate and slow share: after a successful attempt that one of them finds wanting, re-plan
// with what it observed, and run (reexec_on_misestimate = rerun) or only record (= learn) the new plan
// when it changed and its predicted cost beats the old plan's, re-estimated with the observed rows, by
// more than reexec_min_gain.
#include <optional>
#include <string>

#include "reexec/plugin.hpp"

namespace hindsight::reexec {

class ReplanForGainPlugin : public Plugin {
 public:
  void begin(const Settings& settings) noexcept override;
  bool wants_replan(const AttemptOutcome& o) noexcept override;
  void prepare(const AttemptOutcome& o, NextAttempt& next) noexcept override;
  bool accept_plan(const AttemptOutcome& previous, const CompiledQuery& plan, bool changed) noexcept override;
  std::string decision() const noexcept override { return decision_; }

 protected:
  /// Why the successful attempt `o` deserves a re-plan ("worst q-error 340 ..."), or nullopt.
  virtual std::optional<std::string> trigger(const AttemptOutcome& o) const = 0;
  const Settings* settings_ = nullptr;

 private:
  bool acted_ = false;  // once per statement
  std::string note_;
  std::string decision_;
};

/// The time a plan's cost predicts, in ms: cost / (kCostUnitsPerMs · min(workers, cores)). The cost
/// model counts row-touches summed over workers (physical_cost.hpp); kCostUnitsPerMs is what one
/// worker of this engine gets through per millisecond, at the slow end of what TPC-H queries at
/// SF 0.1 measured (20k-160k units/ms on a shared 2-core machine; docs/reexec.md), so that a
/// predicted time is rather too long than too short.
inline constexpr double kCostUnitsPerMs = 20000;
double predicted_ms(const CompiledQuery& plan, int workers);

}  // namespace hindsight::reexec
