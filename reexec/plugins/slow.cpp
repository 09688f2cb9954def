// slow: accepted by reexec_strategies, does nothing yet. The next increment treats an attempt that ran
// much longer than its cost predicts like a misestimate (issue 12).
#include "reexec/plugins/plugins.hpp"

namespace hindsight::reexec {

namespace {
class SlowPlugin final : public Plugin {
 public:
  const char* name() const noexcept override { return "slow"; }
};
}  // namespace

std::unique_ptr<Plugin> make_slow_plugin() { return std::make_unique<SlowPlugin>(); }

}  // namespace hindsight::reexec
