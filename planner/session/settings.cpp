#include "planner/session/settings.hpp"

#include <filesystem>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <thread>

#include "planner/common/error.hpp"
#include "planner/common/text.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "planner/rewrite/rule_driver.hpp"

namespace hindsight {

int Settings::effective_workers() const {
  if (workers > 0) return workers;
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

std::vector<std::string> setting_names() {
  return {"workers", "memory_limit", "disabled_rules", "cte_materialization", "timeout", "mapper_strict", "optimizer",
          "filter_sample",
          "stats_scope", "stats_max_drift", "stats_retention", "cardinality", "oracle_max_subplans", "oracle_subplan_timeout",
          "oracle_subplan_memory_limit", "reexec_strategies",
          "reexec_max_attempts", "reexec_time_budget", "reexec_overlay", "reexec_overlay.<ERROR_CODE>",
          "reexec_qerror_threshold", "reexec_min_gain", "reexec_on_misestimate", "reexec_slow_factor",
          "reexec_slow_ms", "reexec_fail_early", "reexec_count_scans", "count_scans_first", "reexec_spill_in_place", "regression_guard", "fault_injection", "spill",
          "spill_directory"};
}

std::vector<std::string> reexec_strategy_names() { return {"reoptimize", "overlay", "retry", "misestimate", "slow", "spill"}; }

std::string spill_directory(const Settings& s) {
  if (!s.spill_directory.empty()) return s.spill_directory;
  std::error_code ec;
  auto dir = std::filesystem::temp_directory_path(ec);
  return ec ? std::string("/tmp") : dir.string();
}

bool is_reexecutable_error(ErrorCode code) {
  return code == ErrorCode::MEMORY_LIMIT_EXCEEDED || code == ErrorCode::TIMEOUT || code == ErrorCode::TRANSIENT;
}

namespace {
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}
/// "500ms", "30s", "2m", a plain number = milliseconds; false when malformed or negative.
bool parse_duration_ms(std::string v, int64_t& out) {
  v = lower(v);
  double mult = 1;
  if (v.size() > 2 && v.substr(v.size() - 2) == "ms") v.resize(v.size() - 2);
  else if (!v.empty() && v.back() == 's') {
    v.pop_back();
    mult = 1000;
  } else if (!v.empty() && v.back() == 'm') {
    v.pop_back();
    mult = 60000;
  } else if (!v.empty() && (v.back() == 'h' || v.back() == 'd' || v.back() == 'w')) {
    mult = v.back() == 'h' ? 3600e3 : v.back() == 'd' ? 86400e3 : 604800e3;
    v.pop_back();
  }
  try {
    size_t used;
    double x = std::stod(v, &used);
    if (used != v.size() || !(x >= 0) || x * mult > 1e15) return false;
    out = static_cast<int64_t>(x * mult);
    return true;
  } catch (...) {
    return false;
  }
}
}  // namespace

std::vector<std::pair<std::string, std::string>> parse_overlay(const Settings& s, const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  Settings scratch = s;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ';')) {
    item = trim(item);
    if (item.empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string::npos)
      throw Error(ErrorCode::TYPE_ERROR,
                  fmt::format("overlay entry '{}' is not name=value (an overlay reads 'workers=8;memory_limit=1GB')",
                              printable(item)));
    std::string name = lower(trim(item.substr(0, eq))), value = trim(item.substr(eq + 1));
    if (name.rfind("reexec_", 0) == 0)
      throw Error(ErrorCode::TYPE_ERROR, fmt::format("an overlay cannot set {} (re-execution settings apply to the "
                                                     "whole statement)", printable(name)));
    apply_setting(scratch, name, value);  // throws for an unknown name or a bad value
    out.emplace_back(name, value);
  }
  return out;
}

void apply_setting(Settings& s, const std::string& raw_name, const std::string& raw_value) {
  std::string name = lower(trim(raw_name));
  std::string value = trim(raw_value);
  auto bad = [&](const std::string& expected) {
    throw Error(ErrorCode::TYPE_ERROR,
                fmt::format("invalid value '{}' for setting {}: expected {}", printable(value), printable(name), expected));
  };
  // A boolean setting: on/true/1 or off/false/0.
  auto on_off = [&](const std::string& expected) {
    const std::string v = lower(value);
    if (v == "true" || v == "on" || v == "1") return true;
    if (v == "false" || v == "off" || v == "0") return false;
    bad(expected);
    return false;
  };
  if (name == "workers") {
    try {
      size_t used;
      long v = std::stol(value, &used);
      if (used != value.size() || v < 1 || v > 256) bad("an integer from 1 to 256");
      s.workers = static_cast<int>(v);
    } catch (const Error&) {
      throw;
    } catch (...) {
      bad("an integer from 1 to 256");
    }
  } else if (name == "memory_limit" || name == "oracle_subplan_memory_limit") {
    // Any budget from one byte up is honoured (a tiny one makes the first hash table or buffer fail, which is
    // what a test of MEMORY_LIMIT_EXCEEDED wants); the top is a round number below int64's range.
    // oracle_subplan_memory_limit also takes 0: the statement's memory_limit.
    constexpr int64_t kMaxMemoryLimit = int64_t{8000000} << 40;
    const bool oracle = name == "oracle_subplan_memory_limit";
    int64_t bytes;
    if (oracle && trim(value) == "0") bytes = 0;
    else if (!parse_byte_size(value, bytes) || bytes < 1 || bytes > kMaxMemoryLimit)
      bad(oracle ? "a size such as 256MB or 1GB (units B, KB, MB, GB, TB), from 1B to 8000000TB, or 0 (the "
                   "statement's memory_limit)"
                 : "a size such as 256MB or 1GB (units B, KB, MB, GB, TB), from 1B to 8000000TB");
    (oracle ? s.oracle_subplan_memory_limit : s.memory_limit) = bytes;
  } else if (name == "disabled_rules") {
    std::set<std::string> rules;
    auto known = rewrite_rule_names();
    known.push_back("cost_based_join_order");  // the optimizer's join enumeration, after the rewrites
    std::stringstream in(value);
    std::string item;
    while (std::getline(in, item, ',')) {
      item = lower(trim(item));
      if (item.empty()) continue;
      if (std::find(known.begin(), known.end(), item) == known.end()) {
        std::string list;
        for (auto& k : known) list += (list.empty() ? "" : ", ") + k;
        throw Error(ErrorCode::TYPE_ERROR,
                    fmt::format("unknown rewrite rule '{}' in disabled_rules (rules: {})", printable(item), list));
      }
      rules.insert(item);
    }
    s.disabled_rules = std::move(rules);
  } else if (name == "optimizer") {
    std::string v = lower(value);
    if (v != "cost" && v != "foundation")
      bad("cost (statistics, cost-based join order and distribution) or foundation (the first rule-of-thumb planner)");
    s.optimizer = v;
  } else if (name == "cte_materialization") {
    std::string v = lower(value);
    if (v != "auto" && v != "always") bad("auto (inline every reference) or always (plan once, read at every reference)");
    s.cte_materialization = v;
  } else if (name == "timeout" || name == "oracle_subplan_timeout") {
    int64_t ms = 0;
    if (!parse_duration_ms(value, ms)) bad("a duration such as 500ms, 30s or 2m (0 = none)");
    (name == "timeout" ? s.timeout_ms : s.oracle_subplan_timeout_ms) = ms;
  } else if (name == "stats_retention") {
    int64_t ms = 0;
    if (!parse_duration_ms(value, ms)) bad("a duration such as 30d, 12h or 2w (0 = keep everything)");
    s.stats_retention_ms = ms;
  } else if (name == "stats_scope") {
    std::string v = lower(value);
    if (v == "off") s.stats_scope = Settings::StatsScope::Off;
    else if (v == "query") s.stats_scope = Settings::StatsScope::Query;
    else if (v == "process") s.stats_scope = Settings::StatsScope::Process;
    else if (v == "persistent") s.stats_scope = Settings::StatsScope::Persistent;
    else bad("off, query (this statement's attempts), process (this process) or persistent (the stats store)");
  } else if (name == "cardinality") {
    std::string v = lower(value);
    if (v != "model" && v != "oracle")
      bad("model (the cardinality model and observed statistics) or oracle (true counts, by counting sub-plans)");
    s.cardinality = v;
  } else if (name == "oracle_max_subplans") {
    try {
      size_t used;
      long long v = std::stoll(value, &used);
      if (used != value.size() || v < 0 || v > 1000000) bad("an integer from 0 to 1000000");
      s.oracle_max_subplans = v;
    } catch (const Error&) {
      throw;
    } catch (...) {
      bad("an integer from 0 to 1000000");
    }
  } else if (name == "stats_max_drift") {
    std::string v = value;
    double mult = 1;
    if (!v.empty() && v.back() == '%') {
      v.pop_back();
      mult = 0.01;
    }
    try {
      size_t used;
      double x = std::stod(v, &used);
      if (used != v.size() || !(x >= 0) || x * mult > 1e6) bad("a fraction such as 0.1 or a percentage such as 10%");
      s.stats_max_drift = x * mult;
    } catch (const Error&) {
      throw;
    } catch (...) {
      bad("a fraction such as 0.1 or a percentage such as 10%");
    }
  } else if (name == "reexec_strategies") {
    std::vector<std::string> list;
    const auto known = reexec_strategy_names();
    std::stringstream in(lower(value));
    std::string item;
    bool none = false;
    while (std::getline(in, item, ',')) {
      item = trim(item);
      if (item.empty()) continue;
      if (item == "none") {
        none = true;
        continue;
      }
      if (std::find(known.begin(), known.end(), item) == known.end())
        bad("a comma-separated list of reoptimize, overlay, retry, misestimate, slow, or none");
      if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
    }
    if (none && !list.empty()) bad("none alone, or a list of strategies without none");
    s.reexec_strategies = std::move(list);
  } else if (name == "reexec_max_attempts") {
    try {
      size_t used;
      long v = std::stol(value, &used);
      if (used != value.size() || v < 1 || v > 100) bad("an integer from 1 to 100");
      s.reexec_max_attempts = static_cast<int>(v);
    } catch (const Error&) {
      throw;
    } catch (...) {
      bad("an integer from 1 to 100");
    }
  } else if (name == "reexec_time_budget") {
    int64_t ms;
    if (lower(value) == "none") ms = 0;
    else if (!parse_duration_ms(value, ms)) bad("a duration such as 500ms, 30s or 2m (0 or none = no budget)");
    s.reexec_time_budget_ms = ms;
  } else if (name == "reexec_overlay") {
    parse_overlay(s, value);  // checked now, applied on re-execution
    s.reexec_overlay = value;
  } else if (name.rfind("reexec_overlay.", 0) == 0) {
    std::string code = name.substr(std::string("reexec_overlay.").size());
    for (auto& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (code != "MEMORY_LIMIT_EXCEEDED" && code != "TIMEOUT" && code != "TRANSIENT")
      throw Error(ErrorCode::BIND_ERROR,
                  fmt::format("unknown setting '{}': reexec_overlay.<CODE> takes MEMORY_LIMIT_EXCEEDED, TIMEOUT or "
                              "TRANSIENT (the errors a statement may be re-executed after)",
                              printable(raw_name)));
    parse_overlay(s, value);
    if (value.empty()) s.reexec_overlay_by_code.erase(code);
    else s.reexec_overlay_by_code[code] = value;
  } else if (name == "reexec_qerror_threshold" || name == "reexec_min_gain" || name == "reexec_slow_factor") {
    std::string v = value;
    double mult = 1;
    const bool gain = name == "reexec_min_gain";
    if (gain && !v.empty() && v.back() == '%') {
      v.pop_back();
      mult = 0.01;
    }
    const char* expected = gain ? "a fraction from 0 to 1 such as 0.2, or a percentage such as 20%"
                           : name == "reexec_slow_factor" ? "a number >= 1 such as 4 (0 = off)"
                                                          : "a number >= 1 such as 10";
    double x = 0;
    try {
      size_t used;
      x = std::stod(v, &used) * mult;
      if (used != v.size()) bad(expected);
    } catch (const Error&) {
      throw;
    } catch (...) {
      bad(expected);
    }
    if (gain) {
      if (!(x >= 0 && x <= 1)) bad(expected);
      s.reexec_min_gain = x;
    } else if (name == "reexec_slow_factor") {
      if (!(x == 0 || (x >= 1 && x <= 1e6))) bad(expected);
      s.reexec_slow_factor = x;
    } else {
      if (!(x >= 1 && x <= 1e12)) bad(expected);
      s.reexec_qerror_threshold = x;
    }
  } else if (name == "reexec_on_misestimate") {
    std::string v = lower(value);
    if (v != "learn" && v != "rerun")
      bad("learn (record what was observed; the next run plans better) or rerun (run the better plan now)");
    s.reexec_on_misestimate = v;
  } else if (name == "reexec_slow_ms") {
    int64_t ms = 0;
    if (lower(value) == "off" || lower(value) == "none") ms = -1;
    else if (!parse_duration_ms(value, ms)) bad("a duration such as 500ms or 5s (0 = every attempt; off = none)");
    s.reexec_slow_ms = ms;
  } else if (name == "regression_guard") {
    s.regression_guard = on_off("on or off");
  } else if (name == "reexec_fail_early") {
    s.reexec_fail_early = on_off("on or off");
  } else if (name == "reexec_count_scans") {
    s.reexec_count_scans = on_off("on or off");
  } else if (name == "filter_sample") {
    s.filter_sample = on_off("on or off");
  } else if (name == "count_scans_first") {
    s.count_scans_first = on_off("on or off");
  } else if (name == "reexec_spill_in_place") {
    const std::string v = lower(value);
    const char* expected =
        "on (spill in place when the re-plan keeps the plan or finishing it is predicted cheaper than the re-plan), "
        "same_plan (only when the re-plan keeps the plan) or off";
    if (v == "same_plan") s.reexec_spill_in_place = Settings::SpillInPlace::SamePlan;
    else s.reexec_spill_in_place = on_off(expected) ? Settings::SpillInPlace::On : Settings::SpillInPlace::Off;
  } else if (name == "fault_injection") {
    s.fault_injection = parse_fault_spec(value);
  } else if (name == "spill") {
    s.spill = on_off("on or off");
  } else if (name == "spill_directory") {
    // Checked here so that a typo fails the SET, not the query that first spills.
    std::error_code ec;
    if (!value.empty() && !std::filesystem::is_directory(value, ec))
      bad("an existing directory (or '' for the system's temporary directory)");
    s.spill_directory = value;
  } else if (name == "mapper_strict") {
    s.mapper_strict = on_off("true or false");
  } else {
    std::string list;
    for (auto& k : setting_names()) list += (list.empty() ? "" : ", ") + k;
    throw Error(ErrorCode::BIND_ERROR, fmt::format("unknown setting '{}' (settings: {})", printable(raw_name), list));
  }
}

}  // namespace hindsight
