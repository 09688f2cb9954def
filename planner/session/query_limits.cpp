#include "planner/session/query_limits.hpp"

#include <algorithm>

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

void QueryLimits::charge_loads_of(const QueryLimits& earlier) {
  for (const auto& [table, bytes] : earlier.loaded_) check(table, bytes);
}

void QueryLimits::check(const std::string& table, int64_t bytes) {
  // The loaders' figures only grow (their running estimates are lower bounds of the exact size).
  int64_t& charged = loaded_[table];
  if (bytes > charged) {
    memory_.charge(bytes - charged, fmt::format("loading table '{}'", table));
    charged = bytes;
  }
  if (deadline_ != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() > deadline_)
    check_deadline(fmt::format("loading table '{}'", table));
}

void QueryLimits::add(const std::string& table, int64_t bytes) {
  check(table, loaded_[table] + std::max<int64_t>(bytes, 0));
}

}  // namespace hindsight
