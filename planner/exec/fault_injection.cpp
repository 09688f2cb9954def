#include "planner/exec/fault_injection.hpp"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <thread>
#include <sstream>

#include "planner/common/text.hpp"

namespace hindsight {

namespace {
std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
constexpr ErrorCode kCodes[] = {ErrorCode::PARSE_ERROR, ErrorCode::BIND_ERROR, ErrorCode::NOT_SUPPORTED,
                                ErrorCode::TYPE_ERROR, ErrorCode::DATA_ERROR, ErrorCode::MEMORY_LIMIT_EXCEEDED,
                                ErrorCode::TIMEOUT, ErrorCode::TRANSIENT, ErrorCode::IO_ERROR,
                                ErrorCode::STORE_ERROR, ErrorCode::INTERNAL};
}  // namespace

FaultSpec parse_fault_spec(const std::string& text) {
  FaultSpec spec;
  const std::string all = trim(text);
  if (all.empty() || lower(all) == "none") return spec;
  auto bad = [&](const std::string& why) {
    throw Error(ErrorCode::TYPE_ERROR,
                fmt::format("invalid value '{}' for setting fault_injection: {} (expected "
                            "'operator=NAME;after_rows=N;error=CODE;times=N', or none)",
                            printable(all), why));
  };
  auto number = [&](const std::string& key, const std::string& v, uint64_t max) -> uint64_t {
    try {
      size_t used;
      long long x = std::stoll(v, &used);
      if (used == v.size() && x >= 0 && static_cast<uint64_t>(x) <= max) return static_cast<uint64_t>(x);
    } catch (...) {
    }
    bad(fmt::format("{} must be an integer from 0 to {}", key, max));
    return 0;
  };
  std::stringstream in(all);
  std::string item;
  bool error_given = false;
  while (std::getline(in, item, ';')) {
    item = trim(item);
    if (item.empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string::npos) bad(fmt::format("'{}' is not key=value", printable(item)));
    std::string key = lower(trim(item.substr(0, eq))), value = trim(item.substr(eq + 1));
    if (key == "operator") {
      if (value.empty()) bad("operator needs a name such as HashJoinBuild");
      spec.op = value;
    } else if (key == "after_rows") {
      spec.after_rows = number(key, value, uint64_t{1} << 62);
    } else if (key == "times") {
      spec.times = static_cast<int>(number(key, value, 1000000));
    } else if (key == "delay_ms") {
      spec.delay_ms = static_cast<int64_t>(number(key, value, 600000));
      if (spec.delay_ms == 0) bad("delay_ms must be at least 1");
    } else if (key == "error") {
      error_given = true;
      bool found = false;
      for (ErrorCode c : kCodes)
        if (lower(value) == lower(error_code_name(c))) {
          spec.error = c;
          found = true;
        }
      if (!found) bad(fmt::format("unknown error code '{}'", printable(value)));
    } else {
      bad(fmt::format("unknown key '{}' (keys: operator, after_rows, error, delay_ms, times)", printable(key)));
    }
  }
  if (spec.op.empty()) bad("operator is required");
  if (error_given && spec.delay_ms > 0) bad("a fault is an error or a delay_ms, not both");
  return spec;
}

std::string describe_fault_spec(const FaultSpec& spec) {
  if (spec.op.empty()) return "";
  if (spec.delay_ms > 0)
    return fmt::format("operator={};after_rows={};delay_ms={};times={}", spec.op, spec.after_rows, spec.delay_ms,
                       spec.times);
  return fmt::format("operator={};after_rows={};error={};times={}", spec.op, spec.after_rows,
                     error_code_name(spec.error), spec.times);
}

void FaultInjection::observe(const std::string& name, uint64_t rows, const std::string& label) {
  if (name != spec_.op || fired_.load(std::memory_order_relaxed)) return;
  const uint64_t seen = seen_.fetch_add(rows) + rows;
  if (seen < spec_.after_rows) return;
  if (fired_.exchange(true)) return;  // another worker's instance fired it
  if (spec_.delay_ms > 0) {  // a slowdown: this operator takes delay_ms longer, the attempt goes on
    std::this_thread::sleep_for(std::chrono::milliseconds(spec_.delay_ms));
    return;
  }
  throw Error(spec_.error, fmt::format("injected fault (fault_injection): {} in {} after {} rows",
                                       error_code_name(spec_.error), label, seen));
}

}  // namespace hindsight
