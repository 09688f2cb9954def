#include "planner/session/query_limits.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"

namespace hindsight {

QueryLimits::QueryLimits(const Settings& settings) : memory_(settings.memory_limit) {
  if (settings.timeout_ms > 0)
    deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(settings.timeout_ms);
}

void QueryLimits::check_deadline(const std::string& doing) const {
  if (deadline_ != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() > deadline_)
    throw Error(ErrorCode::TIMEOUT, fmt::format("query exceeded its time limit while {}", doing));
}

void QueryLimits::check(const std::string& table, int64_t bytes) {
  int64_t& charged = loaded_[table];
  const std::string doing = fmt::format("loading table '{}'", table);
  if (bytes > charged) {
    memory_.charge(bytes - charged, doing);
    charged = bytes;
  } else if (bytes < charged) {  // the estimate ran ahead of the exact size
    memory_.release(charged - bytes);
    charged = bytes;
  }
  check_deadline(doing);
}

}  // namespace hindsight
