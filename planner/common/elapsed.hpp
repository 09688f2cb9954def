#pragma once
#include <chrono>
#include <ctime>

namespace hindsight {

/// Milliseconds of steady-clock time since `t0`: how plan, execution, stats and oracle times are reported.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// CPU time the whole process has used (every thread, user and system), in milliseconds: the difference across an
/// execution is what its workers computed, whatever else shares the machine (wall time on a loaded machine is
/// mostly waiting for a core). 0 where the clock is not available.
inline double process_cpu_ms() {
  timespec ts{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace hindsight
