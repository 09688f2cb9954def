#include "reexec/plan_diff.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

namespace hindsight::reexec {

namespace {

struct JoinInfo {
  std::string key;    ///< the sorted base tables below the join
  std::string shown;  ///< probe tables ⋈ build tables, as planned
  std::string build;  ///< the build side's tables
  std::string distribution;
  const PhysicalOperator* build_node = nullptr;
};

std::string names(const std::multiset<std::string>& tables) {
  std::string out;
  for (auto& t : tables) out += (out.empty() ? "" : "⋈") + t;
  return out.empty() ? "?" : out;
}

void tables_below(const PhysicalOperator& op, std::multiset<std::string>& out) {
  if (op.kind == PhysicalOpKind::TableScan) {
    const auto& scan = op.as<PhysicalTableScan>();
    if (scan.table) out.insert(scan.table->def.name);
  }
  for (auto& c : op.children) tables_below(*c, out);
}

void collect_joins(const PhysicalOperator& op, std::vector<JoinInfo>& out) {
  const bool hash = op.kind == PhysicalOpKind::HashJoin;
  if ((hash || op.kind == PhysicalOpKind::NestedLoopJoin) && op.children.size() == 2) {
    std::multiset<std::string> probe, build, all;
    tables_below(*op.children[0], probe);
    tables_below(*op.children[1], build);
    all.insert(probe.begin(), probe.end());
    all.insert(build.begin(), build.end());
    JoinInfo j;
    j.key = names(all);
    j.shown = (probe.size() > 1 ? "(" + names(probe) + ")" : names(probe)) + "⋈" +
              (build.size() > 1 ? "(" + names(build) + ")" : names(build));
    j.build = names(build);
    j.distribution = hash ? join_distribution_name(op.as<PhysicalHashJoin>().join_distribution) : "nested loop";
    j.build_node = op.children[1].get();
    out.push_back(std::move(j));
  }
  for (auto& c : op.children) collect_joins(*c, out);
}

}  // namespace

std::string short_count(double rows) {
  if (rows < 0) return "?";
  if (rows >= 1e9) return fmt::format("{:.1f}G", rows / 1e9);
  if (rows >= 1e6) return fmt::format("{:.1f}M", rows / 1e6);
  if (rows >= 1e4) return fmt::format("{:.0f}k", rows / 1e3);
  if (rows >= 1e3) return fmt::format("{:.1f}k", rows / 1e3);
  return fmt::format("{:.0f}", rows);
}

std::string build_estimate_note(double estimated_rows, uint64_t observed_rows, bool complete) {
  const auto observed = static_cast<double>(observed_rows);
  const std::string est = short_count(estimated_rows), seen = short_count(observed);
  if (complete ? est == seen : observed <= estimated_rows || est == seen) return "";
  return fmt::format("; build estimate {} -> observed {}{} rows", est, complete ? "" : ">= ", seen);
}

std::string describe_plan_change(const CompiledQuery& before, const ExecutedQuery* before_run,
                                 const CompiledQuery& after) {
  std::vector<JoinInfo> old_joins, new_joins;
  if (before.physical) collect_joins(*before.physical, old_joins);
  if (after.physical) collect_joins(*after.physical, new_joins);
  std::vector<std::string> parts;
  std::multiset<std::string> matched;
  for (const JoinInfo& j : new_joins) {
    const JoinInfo* old = nullptr;
    for (const JoinInfo& o : old_joins)
      if (o.key == j.key) old = &o;
    if (!old) {
      parts.push_back(fmt::format("new join {} ({})", j.shown, j.distribution));
      continue;
    }
    matched.insert(j.key);
    std::vector<std::string> changes;
    if (old->distribution != j.distribution) changes.push_back(old->distribution + " -> " + j.distribution);
    if (old->build != j.build) changes.push_back("build " + old->build + " -> build " + j.build);
    if (changes.empty()) continue;
    std::string text = fmt::format("join {}: {}", j.shown, changes[0]);
    for (size_t i = 1; i < changes.size(); ++i) text += ", " + changes[i];
    if (before_run && old->build_node) {
      if (auto seen = observed_output(*before_run, *old->build_node))
        text += build_estimate_note(old->build_node->estimated_rows, seen->rows, seen->complete);
    }
    parts.push_back(std::move(text));
  }
  for (const JoinInfo& o : old_joins)
    if (!matched.count(o.key)) {
      bool again = false;
      for (const JoinInfo& j : new_joins) again = again || j.key == o.key;
      if (!again) parts.push_back(fmt::format("join {} dropped (another join order)", o.shown));
    }
  constexpr size_t kMaxParts = 4;
  std::string out;
  for (size_t i = 0; i < parts.size() && i < kMaxParts; ++i) out += (i ? " | " : "") + parts[i];
  if (parts.size() > kMaxParts) out += fmt::format(" | {} more join changes", parts.size() - kMaxParts);
  return out;
}

}  // namespace hindsight::reexec
