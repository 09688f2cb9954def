#include "reexec/plugins/replan_gain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "reexec/plan_diff.hpp"

namespace hindsight::reexec {

double predicted_ms(const CompiledQuery& plan, int workers) {
  // Workers beyond the machine's cores share them: they add no speed.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return plan_cost(plan) / (kCostUnitsPerMs * std::clamp(workers, 1, cores));
}

void ReplanForGainPlugin::begin(const Settings& settings) noexcept { settings_ = &settings; }

bool ReplanForGainPlugin::wants_replan(const AttemptOutcome& o) noexcept {
  if (acted_ || o.error || !o.plan || !o.run || !settings_) return false;
  try {
    auto why = trigger(o);
    if (!why) return false;
    note_ = std::move(*why);
    return true;
  } catch (...) {
    return false;
  }
}

void ReplanForGainPlugin::prepare(const AttemptOutcome&, NextAttempt& next) noexcept {
  acted_ = true;
  next.replan = true;
  if (settings_->reexec_on_misestimate != "rerun") next.execute = false;
  try {
    next.notes.push_back(note_);
  } catch (...) {
  }
}

bool ReplanForGainPlugin::accept_plan(const AttemptOutcome& previous, const CompiledQuery& plan, bool changed) noexcept {
  try {
    if (!changed) {
      decision_ = "the plan did not change";
      return false;
    }
    const double before = previous.observed_cost, after = plan_cost(plan);
    if (!(before > 0)) {
      decision_ = "no cost to compare with";
      return false;
    }
    const double gain = 1 - after / before;
    decision_ = fmt::format("predicted cost {} -> {} ({:+.0f}%, the old plan re-estimated with the observed rows)",
                            short_count(before), short_count(after), -gain * 100);
    if (gain > settings_->reexec_min_gain) return true;
    decision_ += fmt::format(": a gain below reexec_min_gain ({:.0f}%)", settings_->reexec_min_gain * 100);
    return false;
  } catch (...) {
    return false;
  }
}

}  // namespace hindsight::reexec
