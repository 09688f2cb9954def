#include "reexec/workload/replay_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace hindsight::workload {

namespace {

double at_least(double ms) { return std::max(ms, kMinMs); }

double share(size_t n, size_t of) { return of == 0 ? 0.0 : static_cast<double>(n) / static_cast<double>(of); }

nlohmann::json number_or_null(double v, bool known) { return known ? nlohmann::json(v) : nlohmann::json(nullptr); }

std::string ratio_text(double r) { return r > 0 ? fmt::format("{:.2f}x", r) : "-"; }

std::string percent(double s) { return fmt::format("{:.0f} %", 100 * s); }

}  // namespace

double QueryReplay::speedup() const { return compared() ? at_least(captured_ms) / at_least(replayed_ms) : 0; }

double QueryReplay::work_ratio() const {
  return compared() && work_before > 0 && work_after > 0 ? work_before / work_after : 0;
}

double geomean(const std::vector<double>& values) {
  double log_sum = 0;
  size_t n = 0;
  for (double v : values)
    if (v > 0) {
      log_sum += std::log(v);
      ++n;
    }
  return n == 0 ? 0 : std::exp(log_sum / static_cast<double>(n));
}

ReplaySummary summarize(const std::vector<QueryReplay>& queries) {
  ReplaySummary s;
  s.queries = queries.size();
  std::vector<double> speedups, work_ratios;
  size_t improved = 0, regressed = 0, improved_work = 0, regressed_work = 0;
  for (const QueryReplay& q : queries) {
    if (!q.captured_ok && q.ok) ++s.failures_fixed;
    if (q.captured_ok && !q.ok) ++s.failures_introduced;
    if (q.plan_changed) ++s.plans_changed;
    if (q.promoted) ++s.promoted;
    if (q.results_match == false) ++(q.data_changed ? s.results_differ_other_data : s.results_differ);
    if (!q.compared()) continue;
    ++s.compared;
    const double sp = q.speedup();
    speedups.push_back(sp);
    if (sp > kChangeBand) ++improved;
    if (sp < 1 / kChangeBand) ++regressed;
    if (const double wr = q.work_ratio(); wr > 0) {
      work_ratios.push_back(wr);
      if (wr > kChangeBand) ++improved_work;
      if (wr < 1 / kChangeBand) ++regressed_work;
    }
  }
  s.geomean_speedup = geomean(speedups);
  s.geomean_work_ratio = geomean(work_ratios);
  s.improved_share = share(improved, s.compared);
  s.regressed_share = share(regressed, s.compared);
  s.improved_work_share = share(improved_work, work_ratios.size());
  s.regressed_work_share = share(regressed_work, work_ratios.size());
  return s;
}

std::vector<Measured> replayed(const std::vector<QueryReplay>& queries) {
  std::vector<Measured> out;
  for (auto& q : queries) out.push_back({q.name, q.ok, q.replayed_ms, q.work_after});
  return out;
}

std::vector<Measured> captured(const std::vector<QueryReplay>& queries) {
  std::vector<Measured> out;
  for (auto& q : queries) out.push_back({q.name, q.captured_ok, q.captured_ms, q.work_before});
  return out;
}

OracleComparison compare_with_oracle(const std::vector<Measured>& run, const std::vector<Measured>& oracle) {
  std::map<std::string, const Measured*> by_name;
  for (auto& m : oracle) by_name[m.name] = &m;
  OracleComparison c;
  std::vector<double> ratios, work_ratios;
  size_t within = 0, within_work = 0;
  for (const Measured& m : run) {
    auto it = by_name.find(m.name);
    if (!m.ok || it == by_name.end() || !it->second->ok) continue;
    ++c.compared;
    const double r = at_least(m.ms) / at_least(it->second->ms);
    ratios.push_back(r);
    if (r <= kOracleBand) ++within;
    if (m.work > 0 && it->second->work > 0) {
      const double wr = m.work / it->second->work;
      work_ratios.push_back(wr);
      if (wr <= kOracleBand) ++within_work;
    }
  }
  c.within_share = share(within, c.compared);
  c.within_work_share = share(within_work, work_ratios.size());
  c.geomean_ratio = geomean(ratios);
  c.geomean_work_ratio = geomean(work_ratios);
  return c;
}

nlohmann::json query_json(const QueryReplay& q) {
  nlohmann::json j = {
      {"name", q.name},
      {"status", q.ok ? "ok" : "failed"},
      {"captured_status", q.captured_ok ? "ok" : "failed"},
      {"results_match", q.results_match ? nlohmann::json(*q.results_match) : nlohmann::json(nullptr)},
      {"data_changed", q.data_changed},
      {"plan_changed", q.plan_changed},
      {"plan_diff", q.plan_diff},
      {"captured_ms", q.captured_ms},
      {"replayed_ms", q.replayed_ms},
      {"runs_ms", q.runs_ms},
      {"cpu_ms", q.cpu_ms},
      {"plan_ms", q.plan_ms},
      {"exec_ms", q.exec_ms},
      {"stats_ms", q.stats_ms},
      {"speedup", number_or_null(q.speedup(), q.compared())},
      {"work_before", q.work_before},
      {"work_after", q.work_after},
      {"work_ratio", number_or_null(q.work_ratio(), q.work_ratio() > 0)},
      {"qerror_before", q.qerror_before},
      {"qerror_after", q.qerror_after},
      {"attempts", q.attempts},
      {"rows", q.rows},
      {"digest", q.digest},
      {"promoted", q.promoted},
  };
  if (!q.ok) j["error"] = q.error;
  return j;
}

nlohmann::json summary_json(const ReplaySummary& s) {
  return {{"queries", s.queries},
          {"compared", s.compared},
          {"geomean_speedup", s.geomean_speedup},
          {"geomean_work_ratio", s.geomean_work_ratio},
          {"improved_share", s.improved_share},
          {"regressed_share", s.regressed_share},
          {"improved_work_share", s.improved_work_share},
          {"regressed_work_share", s.regressed_work_share},
          {"failures_fixed", s.failures_fixed},
          {"failures_introduced", s.failures_introduced},
          {"results_differ", s.results_differ},
          {"results_differ_other_data", s.results_differ_other_data},
          {"plans_changed", s.plans_changed},
          {"promoted", s.promoted}};
}

nlohmann::json oracle_json(const OracleComparison& c) {
  return {{"compared", c.compared},
          {"within_1_2_share", c.within_share},
          {"within_1_2_work_share", c.within_work_share},
          {"geomean_ratio", c.geomean_ratio},
          {"geomean_work_ratio", c.geomean_work_ratio}};
}

std::string replay_text(const std::string& feedback, const std::vector<QueryReplay>& queries,
                        const ReplaySummary& s) {
  std::string out = fmt::format("replay with feedback {}\n", feedback);
  out += fmt::format("{:<24} {:<7} {:<7} {:>10} {:>10} {:>8} {:>8} {:>9} {:>9} {:>4}  {}\n", "query", "status", "result",
                     "capt ms", "repl ms", "speedup", "work", "q-err was", "q-err now", "att", "plan");
  for (const QueryReplay& q : queries) {
    const std::string result = !q.results_match ? "-" : *q.results_match ? "same" : q.data_changed ? "other*" : "DIFFERS";
    std::string plan = q.plan_changed ? (q.plan_diff.empty() ? "changed" : q.plan_diff) : "same";
    if (!q.ok) plan = q.error.substr(0, 100);
    out += fmt::format("{:<24} {:<7} {:<7} {:>10.1f} {:>10.1f} {:>8} {:>8} {:>9.1f} {:>9.1f} {:>4}  {}{}\n", q.name,
                       q.ok ? "ok" : "failed", result, q.captured_ms, q.replayed_ms, ratio_text(q.speedup()),
                       ratio_text(q.work_ratio()), q.qerror_before, q.qerror_after, q.attempts, plan,
                       q.promoted ? " [promoted]" : "");
  }
  out += fmt::format(
      "summary ({}): {} queries, {} compared; geometric-mean speedup {} (work {}); improved {} / regressed {} by time, "
      "{} / {} by work (beyond ±10 %); plans changed {}; failures fixed {}, introduced {}; results that differ {}",
      feedback, s.queries, s.compared, ratio_text(s.geomean_speedup), ratio_text(s.geomean_work_ratio),
      percent(s.improved_share), percent(s.regressed_share), percent(s.improved_work_share),
      percent(s.regressed_work_share), s.plans_changed, s.failures_fixed, s.failures_introduced, s.results_differ);
  if (s.results_differ_other_data > 0)
    out += fmt::format(" (and {} on tables whose data changed, marked other*)", s.results_differ_other_data);
  if (s.promoted > 0) out += fmt::format("; promoted {}", s.promoted);
  return out + "\n";
}

std::string oracle_text(const std::string& run, const OracleComparison& c) {
  return fmt::format("{:<10} vs oracle: {} compared; within 1.2x of the oracle plan's time {}, of its work {}; "
                     "geometric-mean ratio {} (work {})\n",
                     run, c.compared, percent(c.within_share), percent(c.within_work_share),
                     ratio_text(c.geomean_ratio), ratio_text(c.geomean_work_ratio));
}

std::string summary_table_text(const std::vector<SummaryRow>& rows) {
  const bool oracle = std::any_of(rows.begin(), rows.end(), [](const SummaryRow& r) { return r.vs_oracle.has_value(); });
  const auto row = [](const std::string& run, const std::string& plans, const std::string& speedup,
                      const std::string& work, const std::string& near_work, const std::string& near_time,
                      const std::string& reg_time, const std::string& reg_work, const std::string& fixed,
                      const std::string& introduced, const std::string& differ) {
    return fmt::format("{:<9} {:>7} {:>8} {:>8} {:>7} {:>6} {:>6} {:>6} {:>6} {:>5} {:>8}\n", run, plans, speedup, work,
                       near_work, near_time, reg_time, reg_work, fixed, introduced, differ);
  };
  std::string out = "replay summary (speedup and work ratio: captured / replayed, above 1 = better now)\n";
  // Two header lines: the groups (geomean, within 1.2x of the oracle, regressed, failures) over their columns.
  out += fmt::format("{:<9} {:>7} {:^17} {:^14} {:^13} {:^12} {:>8}\n", "", "plans", "geomean",
                     oracle ? "<=1.2x oracle" : "", "regressed", "failures", "results");
  out += row("run", "changed", "speedup", "work", oracle ? "work" : "", oracle ? "time" : "", "time", "work", "fixed",
             "new", "differ");
  const std::string dash = "-";
  for (const SummaryRow& r : rows) {
    const std::string near_work = r.vs_oracle ? percent(r.vs_oracle->within_work_share) : (oracle ? dash : "");
    const std::string near_time = r.vs_oracle ? percent(r.vs_oracle->within_share) : (oracle ? dash : "");
    if (!r.summary) {
      out += row(r.run, dash, dash, dash, near_work, near_time, dash, dash, dash, dash, dash);
      continue;
    }
    const ReplaySummary& s = *r.summary;
    out += row(r.run, fmt::format("{}/{}", s.plans_changed, s.queries), ratio_text(s.geomean_speedup),
               ratio_text(s.geomean_work_ratio), near_work, near_time, percent(s.regressed_share),
               percent(s.regressed_work_share), fmt::format("{}", s.failures_fixed),
               fmt::format("{}", s.failures_introduced), fmt::format("{}", s.results_differ));
  }
  out += "times are one run's on this machine (noisy); work (rows out of every operator plus exchange bytes) is "
         "deterministic. Regressed: beyond 10 %.\n";
  // The queries that need a look: failed now, a result that differs, more work than captured.
  for (const SummaryRow& r : rows) {
    if (!r.queries) continue;
    for (const QueryReplay& q : *r.queries) {
      std::string what;
      if (!q.ok) what = "failed: " + q.error.substr(0, 100);
      else if (q.results_match == false) what = q.data_changed ? "result differs (its tables changed)" : "RESULT DIFFERS";
      else if (const double wr = q.work_ratio(); wr > 0 && wr < 1 / kChangeBand)
        what = fmt::format("work regressed {} ({:.0f} -> {:.0f})", ratio_text(wr), q.work_before, q.work_after);
      if (!what.empty()) out += fmt::format("  {} {}: {}\n", r.run, q.name, what);
    }
  }
  if (oracle) out += "oracle: the plans true cardinalities give; <=1.2x: the share of queries within 1.2x of them\n";
  return out;
}

}  // namespace hindsight::workload
