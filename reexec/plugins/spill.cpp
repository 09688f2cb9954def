// spill: after MEMORY_LIMIT_EXCEEDED, the next attempts run with `spill = on` (docs/spilling.md): operators
// that would exceed the limit write part of their data to temporary files instead of failing. It re-plans too
// (the re-plan sees what the failed attempt observed, as reoptimize's does), so a re-plan that fits runs in
// memory and spilling only happens where even that plan does not fit.
#include "reexec/plugins/plugins.hpp"

namespace hindsight::reexec {

namespace {

class SpillPlugin final : public Plugin {
 public:
  const char* name() const noexcept override { return "spill"; }
  void begin(const Settings& settings) noexcept override { session_spills_ = settings.spill; }
  /// Nothing to add when the statement spilled already (the session has spill on): it failed anyway.
  bool wants_reexecution(const AttemptOutcome& o) noexcept override {
    return o.error && *o.error == ErrorCode::MEMORY_LIMIT_EXCEEDED && !session_spills_;
  }
  /// The next attempt would run with spilling on: with the same plan, the attempt itself may go on spilling.
  OverflowAnswer after_overflow(const AttemptOutcome& o) const noexcept override {
    return !session_spills_ && o.error && *o.error == ErrorCode::MEMORY_LIMIT_EXCEEDED ? OverflowAnswer::SpillSamePlan
                                                                                       : OverflowAnswer::None;
  }
  /// An overlay lasts one attempt, so every attempt after the first failure gets it again.
  void prepare(const AttemptOutcome&, NextAttempt& next) noexcept override {
    next.overlay.emplace_back("spill", "on");
    next.replan = true;
    ++prepared_;
    if (prepared_ == 1) next.notes.push_back("spill on");
  }
  /// The first attempt with spilling runs whatever its plan (its settings differ); a later one only with a
  /// plan that changed (the same plan spilling the same way would fail the same way). Also after an attempt that
  /// spilled in place and failed all the same: spilling from the start is not the same, the spill reserve is kept
  /// from the start and aggregates and sorts that started before spilling turned on spill too.
  bool accept_plan(const AttemptOutcome&, const CompiledQuery&, bool changed) noexcept override {
    return prepared_ == 1 || changed;
  }

 private:
  bool session_spills_ = false;
  int prepared_ = 0;
};

}  // namespace

std::unique_ptr<Plugin> make_spill_plugin() { return std::make_unique<SpillPlugin>(); }

}  // namespace hindsight::reexec
