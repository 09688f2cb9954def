#include "reexec/plan_diff.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

namespace hindsight::reexec {

namespace {

std::string names(const std::multiset<std::string>& tables) {
  std::string out;
  for (auto& t : tables) out += (out.empty() ? "" : "⋈") + t;
  return out.empty() ? "?" : out;
}

void tables_below(const PhysicalOperator& op, std::vector<std::string>& out) {
  if (op.kind == PhysicalOpKind::TableScan) {
    const auto& scan = op.as<PhysicalTableScan>();
    if (scan.table) out.push_back(scan.table->def.name);
  }
  for (auto& c : op.children) tables_below(*c, out);
}

void collect_joins(const PhysicalOperator& op, const ExecutedQuery* run, std::vector<PlanJoin>& out) {
  const bool hash = op.kind == PhysicalOpKind::HashJoin;
  if ((hash || op.kind == PhysicalOpKind::NestedLoopJoin) && op.children.size() == 2) {
    std::vector<std::string> probe, build;
    tables_below(*op.children[0], probe);
    tables_below(*op.children[1], build);
    PlanJoin j = make_plan_join(probe, build,
                                hash ? join_distribution_name(op.as<PhysicalHashJoin>().join_distribution) : "nested loop");
    if (run)
      if (auto seen = observed_output(*run, *op.children[1]))
        j.build_observed = PlanJoin::Observed{op.children[1]->estimated_rows, seen->rows, seen->complete};
    out.push_back(std::move(j));
  }
  for (auto& c : op.children) collect_joins(*c, run, out);
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

PlanJoin make_plan_join(const std::vector<std::string>& probe_tables, const std::vector<std::string>& build_tables,
                        std::string distribution) {
  const std::multiset<std::string> probe(probe_tables.begin(), probe_tables.end()),
      build(build_tables.begin(), build_tables.end());
  std::multiset<std::string> all = probe;
  all.insert(build.begin(), build.end());
  PlanJoin j;
  j.key = names(all);
  j.shown = (probe.size() > 1 ? "(" + names(probe) + ")" : names(probe)) + "⋈" +
            (build.size() > 1 ? "(" + names(build) + ")" : names(build));
  j.build = names(build);
  j.distribution = std::move(distribution);
  return j;
}

std::vector<PlanJoin> plan_joins(const PhysicalOperator& root, const ExecutedQuery* run) {
  std::vector<PlanJoin> out;
  collect_joins(root, run, out);
  return out;
}

std::string describe_plan_change(const CompiledQuery& before, const ExecutedQuery* before_run,
                                 const CompiledQuery& after) {
  return describe_join_changes(before.physical ? plan_joins(*before.physical, before_run) : std::vector<PlanJoin>{},
                               after.physical ? plan_joins(*after.physical, nullptr) : std::vector<PlanJoin>{});
}

std::string describe_join_changes(const std::vector<PlanJoin>& old_joins, const std::vector<PlanJoin>& new_joins) {
  std::vector<std::string> parts;
  std::multiset<std::string> matched;
  for (const PlanJoin& j : new_joins) {
    const PlanJoin* old = nullptr;
    for (const PlanJoin& o : old_joins)
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
    if (old->build_observed)
      text += build_estimate_note(old->build_observed->estimated_rows, old->build_observed->rows,
                                  old->build_observed->complete);
    parts.push_back(std::move(text));
  }
  for (const PlanJoin& o : old_joins)
    if (!matched.count(o.key)) {
      bool again = false;
      for (const PlanJoin& j : new_joins) again = again || j.key == o.key;
      if (!again) parts.push_back(fmt::format("join {} dropped (another join order)", o.shown));
    }
  constexpr size_t kMaxParts = 4;
  std::string out;
  for (size_t i = 0; i < parts.size() && i < kMaxParts; ++i) out += (i ? " | " : "") + parts[i];
  if (parts.size() > kMaxParts) out += fmt::format(" | {} more join changes", parts.size() - kMaxParts);
  return out;
}

}  // namespace hindsight::reexec
