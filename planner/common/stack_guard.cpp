#include "planner/common/stack_guard.hpp"

#include <fmt/format.h>
#include <pthread.h>

#include <algorithm>
#include <cstdint>

#include "planner/common/error.hpp"

namespace hindsight {

namespace {

/// The lowest frame address the current thread may reach before check_stack_depth refuses to go deeper; 0 when
/// the stack bounds are unknown (then nothing is checked).
uintptr_t stack_floor() {
  thread_local uintptr_t floor = [] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return uintptr_t{0};
    void* low = nullptr;
    size_t size = 0;
    int rc = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0 || low == nullptr || size == 0) return uintptr_t{0};
    // Keep an eighth of the stack (at least 256 KB, at most 2 MB) for the frames between two checks, the
    // error's construction and the unwinding.
    const size_t reserve = std::clamp<size_t>(size / 8, size_t{256} << 10, size_t{2} << 20);
    return reserve >= size ? uintptr_t{0} : reinterpret_cast<uintptr_t>(low) + reserve;
  }();
  return floor;
}

}  // namespace

void check_stack_depth(const char* stage) {
  // The frame address, not a local's: sanitizers may keep locals on a separate fake stack.
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  const uintptr_t floor = stack_floor();
  if (floor != 0 && here < floor)
    throw Error(ErrorCode::NOT_SUPPORTED,
                fmt::format("expression nested too deeply: the stack limit was reached during {}", stage));
}

}  // namespace hindsight
