#pragma once
#include <chrono>

namespace hindsight {

/// Milliseconds of steady-clock time since `t0`: how plan, execution, stats and oracle times are reported.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace hindsight
