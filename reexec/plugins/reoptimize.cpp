// reoptimize: after MEMORY_LIMIT_EXCEEDED or TIMEOUT, plan again with what the failed attempt observed.
#include "reexec/plugins/plugins.hpp"

namespace hindsight::reexec {

namespace {

class ReoptimizePlugin final : public Plugin {
 public:
  const char* name() const noexcept override { return "reoptimize"; }
  bool wants_reexecution(const AttemptOutcome& o) noexcept override {
    // Only an attempt that ran has observed anything a new plan could use: its finished operators'
    // exact counts and its unfinished ones' lower bounds, already recorded into the query scope
    // (and the process and persistent scopes) when it ended. The re-plan reads them from there.
    if (!o.error || !o.plan || !o.run) return false;
    return *o.error == ErrorCode::MEMORY_LIMIT_EXCEEDED || *o.error == ErrorCode::TIMEOUT;
  }
  void begin(const Settings& settings) noexcept override { count_scans_ = settings.reexec_count_scans; }
  void prepare(const AttemptOutcome&, NextAttempt& next) noexcept override {
    next.replan = true;
    // What the failed attempt never reached is still the model's guess; a filtered scan is cheap to count
    // exactly, and a misestimated one is where re-plans went wrong (docs/reexec.md).
    next.count_scans = next.count_scans || count_scans_;
  }
  // accept_plan: the default (only a plan that changed is worth running again).

 private:
  bool count_scans_ = true;
};

}  // namespace

std::unique_ptr<Plugin> make_reoptimize_plugin() { return std::make_unique<ReoptimizePlugin>(); }

}  // namespace hindsight::reexec
