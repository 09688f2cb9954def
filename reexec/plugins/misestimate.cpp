// misestimate: accepted by reexec_strategies, does nothing yet. The next increment re-plans after a
// successful attempt whose worst q-error exceeds reexec_qerror_threshold (issue 12).
#include "reexec/plugins/plugins.hpp"

namespace hindsight::reexec {

namespace {
class MisestimatePlugin final : public Plugin {
 public:
  const char* name() const noexcept override { return "misestimate"; }
};
}  // namespace

std::unique_ptr<Plugin> make_misestimate_plugin() { return std::make_unique<MisestimatePlugin>(); }

}  // namespace hindsight::reexec
