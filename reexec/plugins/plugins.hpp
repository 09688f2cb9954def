#pragma once
#include <memory>
#include <string>

#include "reexec/plugin.hpp"

namespace hindsight::reexec {

/// One factory per strategy of reexec_strategies (one file each).
std::unique_ptr<Plugin> make_reoptimize_plugin();
std::unique_ptr<Plugin> make_overlay_plugin();
std::unique_ptr<Plugin> make_retry_plugin();
std::unique_ptr<Plugin> make_misestimate_plugin();
std::unique_ptr<Plugin> make_slow_plugin();
std::unique_ptr<Plugin> make_spill_plugin();

/// The plugin of a strategy name (reexec_strategy_names()); null for an unknown name.
std::unique_ptr<Plugin> make_plugin(const std::string& name);

}  // namespace hindsight::reexec
