// misestimate: after a successful attempt whose worst q-error exceeds reexec_qerror_threshold, re-plan
// with what it observed (replan_gain.hpp: the new plan is run or only recorded when it is cheaper).
#include <fmt/format.h>

#include "planner/physical/physical_operator.hpp"
#include "planner/session/explain.hpp"
#include "reexec/plan_diff.hpp"
#include "reexec/plugins/plugins.hpp"
#include "reexec/plugins/replan_gain.hpp"

namespace hindsight::reexec {

namespace {
class MisestimatePlugin final : public ReplanForGainPlugin {
 public:
  const char* name() const noexcept override { return "misestimate"; }

 protected:
  std::optional<std::string> trigger(const AttemptOutcome& o) const override {
    // The q-error EXPLAIN ANALYZE shows, over every node that ran.
    const WorstQError worst = worst_q_error(*o.plan, *o.run);
    if (!worst.node || !(worst.q_error > settings_->reexec_qerror_threshold)) return std::nullopt;
    return fmt::format("worst q-error {:.0f} > {:g} (reexec_qerror_threshold) at {} (estimate {} -> observed {}{} rows)",
                       worst.q_error, settings_->reexec_qerror_threshold, physical_op_name(worst.node->kind),
                       short_count(worst.estimated_rows), worst.complete ? "" : ">= ",
                       short_count(static_cast<double>(worst.actual_rows)));
  }
};
}  // namespace

std::unique_ptr<Plugin> make_misestimate_plugin() { return std::make_unique<MisestimatePlugin>(); }

}  // namespace hindsight::reexec
