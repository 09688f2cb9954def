#include "reexec/plugins/plugins.hpp"

namespace hindsight::reexec {

std::unique_ptr<Plugin> make_plugin(const std::string& name) {
  if (name == "reoptimize") return make_reoptimize_plugin();
  if (name == "overlay") return make_overlay_plugin();
  if (name == "retry") return make_retry_plugin();
  if (name == "misestimate") return make_misestimate_plugin();
  if (name == "slow") return make_slow_plugin();
  if (name == "spill") return make_spill_plugin();
  return nullptr;
}

}  // namespace hindsight::reexec
