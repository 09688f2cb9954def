#include "reexec/workload/replay.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <optional>
#include <set>

#include "planner/common/elapsed.hpp"
#include "planner/common/error.hpp"
#include "planner/session/explain.hpp"
#include "planner/session/query_limits.hpp"
#include "planner/session/settings.hpp"
#include "reexec/workload/result_digest.hpp"
#include "stats_store/runtime_stats.hpp"
#include "stats_store/signature_aggregate.hpp"

namespace hindsight::workload {

namespace {

/// The scratch scope of `--promote`: the shared store answers look-ups as usual, but what a query's attempts
/// record (observations and the regression guard's plan runs) is held back until the replay decides: commit()
/// hands it to the store through its own record() / record_plan_run(), the one recording path; discard() drops it.
class StagingRepository final : public stats::StatsRepository {
 public:
  explicit StagingRepository(std::unique_ptr<stats::StatsRepository> store) : store_(std::move(store)) {}
  std::shared_ptr<const stats::StatsSource> snapshot(const std::vector<stats::TableVersion>& tables,
                                                     double max_drift) override {
    return store_->snapshot(tables, max_drift);
  }
  void record(const stats::AttemptStats& attempt) override { attempts_.push_back(attempt); }
  void record_plan_run(const stats::PlanRun& run) override { runs_.push_back(run); }
  std::vector<stats::PlanRecord> plan_history(const std::string& template_signature) override {
    return store_->plan_history(template_signature);
  }
  std::vector<std::string> take_warnings() override { return store_->take_warnings(); }

  void commit() {
    for (auto& a : attempts_) store_->record(a);
    for (auto& r : runs_) store_->record_plan_run(r);
    discard();
  }
  void discard() {
    attempts_.clear();
    runs_.clear();
  }

 private:
  std::unique_ptr<stats::StatsRepository> store_;
  std::vector<stats::AttemptStats> attempts_;
  std::vector<stats::PlanRun> runs_;
};

void tables_of(const PlanNode& n, std::vector<std::string>& out) {
  if (n.operator_() == "TableScan")
    if (auto it = n.details().find("table"); it != n.details().end()) out.push_back(it->second);
  for (auto& c : n.children()) tables_of(c, out);
}

void collect_captured_joins(const PlanNode& n, std::vector<reexec::PlanJoin>& out) {
  const bool hash = n.operator_() == "HashJoin";
  if ((hash || n.operator_() == "NestedLoopJoin") && n.children_size() == 2) {
    std::vector<std::string> probe, build;
    tables_of(n.children(0), probe);
    tables_of(n.children(1), build);
    std::string distribution = "nested loop";
    if (hash) {
      auto it = n.details().find("distribution");
      distribution = it == n.details().end() ? "?" : it->second;
    }
    reexec::PlanJoin j = reexec::make_plan_join(probe, build, std::move(distribution));
    const PlanNode& b = n.children(1);
    if (b.has_actual_rows())
      j.build_observed = reexec::PlanJoin::Observed{b.estimated_rows(), static_cast<uint64_t>(b.actual_rows()),
                                                    b.actual_complete()};
    out.push_back(std::move(j));
  }
  for (auto& c : n.children()) collect_captured_joins(c, out);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

double attempts_ms(const StatementResult& r) {
  double ms = 0;
  for (auto& a : r.attempts) ms += a.plan_ms + a.elapsed_ms;
  return ms;
}

std::string mode_settings_note(Feedback f) {
  switch (f) {
    case Feedback::Off: return "stats_scope=off";
    case Feedback::On: return "stats_scope=persistent";
    case Feedback::Oracle: return "cardinality=oracle";
  }
  return "";
}

void apply_mode(Settings& s, Feedback f) {
  switch (f) {
    case Feedback::Off: apply_setting(s, "stats_scope", "off"); break;
    case Feedback::On: apply_setting(s, "stats_scope", "persistent"); break;
    case Feedback::Oracle:
      apply_setting(s, "cardinality", "oracle");
      apply_setting(s, "stats_scope", "off");
      break;
  }
}

/// Every query's settings leave memory_limit at its default: loading the tables before the first query changes no
/// query's outcome (under a lower limit the columns a query loads count against it, as they did when captured).
bool preload_allowed(const Workload& w, const ReplayInput& in, const Settings& base) {
  const int64_t default_limit = Settings{}.memory_limit;
  for (const CapturedQuery& cq : w.queries()) {
    Settings s = base;
    for (auto& x : cq.settings()) apply_setting(s, x.name(), x.value());
    for (auto& [k, v] : in.sets) apply_setting(s, k, v);
    if (s.memory_limit < default_limit) return false;
  }
  return true;
}

/// Loads every table the workload recorded, before the first query of a mode and outside its timing. Otherwise the
/// first query of a mode to read a table pays its load in plan_ms and elapsed_ms, except under the oracle, whose
/// counting sub-plans (not timed: not what a user's plan costs) load the tables first, so every mode looked slower
/// than the oracle by table loads. A table that does not load is left to the query (it fails there as captured).
void preload_tables(const Workload& w, Database& db) {
  for (const TableInfo& t : w.tables()) {
    try {
      db.table(t.name());
    } catch (...) {
    }
  }
}

ModeReplay replay_mode(const Workload& w, const ReplayInput& in, Feedback mode,
                       const std::set<std::string>& changed, ReplayReport& report) {
  std::unique_ptr<Database> db = in.open_db();
  Session session(*db);
  in.configure(session);
  StagingRepository* staging = nullptr;
  const bool promote = in.promote && mode == Feedback::On;
  if (promote)
    session.set_persistent_stats([&in, &staging](std::vector<std::string>& warnings) -> std::unique_ptr<stats::StatsRepository> {
      auto store = in.open_store ? in.open_store(warnings) : nullptr;
      if (!store) return nullptr;
      auto s = std::make_unique<StagingRepository>(std::move(store));
      staging = s.get();
      return s;
    });
  else if (in.open_store)
    session.set_persistent_stats(in.open_store);
  for (auto& s : w.settings()) apply_setting(session.settings(), s.name(), s.value());
  const Settings base = session.settings();
  if (preload_allowed(w, in, base)) preload_tables(w, *db);

  ModeReplay out;
  out.feedback = mode;
  const size_t total = static_cast<size_t>(w.queries_size());
  for (size_t i = 0; i < total; ++i) {
    const CapturedQuery& cq = w.queries(static_cast<int>(i));
    if (in.progress) in.progress(mode, i, total, cq.name());
    session.settings() = base;
    for (auto& s : cq.settings()) apply_setting(session.settings(), s.name(), s.value());
    for (auto& [k, v] : in.sets) apply_setting(session.settings(), k, v);
    apply_mode(session.settings(), mode);

    QueryReplay q;
    q.name = cq.name();
    q.captured_ok = cq.ok();
    q.captured_ms = cq.plan_ms() + cq.elapsed_ms();
    q.work_before = cq.work();
    q.qerror_before = cq.worst_q_error();
    std::vector<std::string> tables;
    tables_of(cq.plan(), tables);
    // A query that failed before it had a plan read tables unknown: any changed table may be one of them.
    q.data_changed = tables.empty() ? !changed.empty()
                                    : std::any_of(tables.begin(), tables.end(), [&](auto& t) { return changed.count(t); });

    StatementResult first;
    std::vector<double> times, cpu;
    bool all_match = true;
    const auto note_warnings = [&](const std::vector<std::string>& warnings) {
      for (auto& warning : warnings) {
        const std::string w = fmt::format("{} (feedback {}): {}", cq.name(), feedback_name(mode), warning);
        if (std::find(report.warnings.begin(), report.warnings.end(), w) == report.warnings.end())
          report.warnings.push_back(w);
      }
    };
    const auto check_rows = [&](const std::vector<Batch>& batches, bool is_first) {
      const Digest d = result_digest(batches, cq.result().ordered());
      if (is_first) {
        q.digest = d.hex;
        q.rows = d.rows;
      }
      all_match = all_match && cq.ok() && d.hex == cq.result().digest() && d.rows == cq.result().row_count();
    };
    const auto run_once = [&]() {
      StatementResult r;
      try {
        r = session.run_script(cq.sql());
      } catch (...) {
        r.error = current_exception_as_error();
      }
      note_warnings(r.warnings);
      return r;
    };
    double cpu0 = process_cpu_ms();
    first = run_once();
    const double first_cpu = process_cpu_ms() - cpu0;
    if (!first.error) check_rows(first.executed.batches, true);
    const int repeat = std::max(1, in.repeat);
    const bool one_plan = !first.error && first.attempts.size() == 1 && first.compiled && first.executed.exec;
    if (repeat == 1) {
      times.push_back(attempts_ms(first));
      cpu.push_back(first_cpu);
    } else if (one_plan) {
      // --repeat N: the first run (planning, the oracle's counting, learning, recording) is the query's warm-up; the
      // timed runs execute its plan N more times, one after another, so that in every mode they follow an
      // execution of the same plan, and no counting sub-plan or re-planning runs between them (docs/workload.md
      // "Timing"). Their time: the first run's planning plus the median execution.
      const double plan = first.attempts[0].plan_ms;
      for (int run = 0; run < repeat; ++run) {
        ExecutedQuery again;
        std::optional<Error> error;
        const auto t0 = std::chrono::steady_clock::now();
        cpu0 = process_cpu_ms();
        try {
          QueryLimits limits(session.settings());
          again = execute_query(*first.compiled, session.settings(), &limits);
          error = again.error;
        } catch (...) {
          error = current_exception_as_error();
        }
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        const double run_cpu = process_cpu_ms() - cpu0;
        if (error) {  // it ran once as planned; a repeat that fails says so and counts as not matching
          note_warnings({fmt::format("a timed repeat failed: {}: {}", error_code_name(error->code()), error->message())});
          all_match = false;
          continue;
        }
        times.push_back(plan + ms);
        cpu.push_back(run_cpu);
        check_rows(again.batches, false);
      }
      if (times.empty()) {
        times.push_back(attempts_ms(first));
        cpu.push_back(first_cpu);
      }
    } else {
      // Several attempts (or a failure): each repeat goes through the driver again, as the first run did.
      times.push_back(attempts_ms(first));
      cpu.push_back(first_cpu);
      for (int run = 1; run < repeat; ++run) {
        cpu0 = process_cpu_ms();
        StatementResult r = run_once();
        cpu.push_back(process_cpu_ms() - cpu0);
        times.push_back(attempts_ms(r));
        if (!r.error) check_rows(r.executed.batches, false);
      }
    }
    q.ok = !first.error;
    if (first.error) q.error = std::string(error_code_name(first.error->code())) + ": " + first.error->message();
    if (q.ok && cq.ok()) q.results_match = all_match;
    q.replayed_ms = median(times);
    q.runs_ms = times;
    q.cpu_ms = median(cpu);
    q.attempts = static_cast<int>(first.attempts.size());
    for (auto& a : first.attempts) {
      q.plan_ms += a.plan_ms;
      q.exec_ms += a.elapsed_ms;
      q.stats_ms += a.stats_ms;
    }
    if (first.compiled) {
      q.plan_hash = plan_hash(*first.compiled);
      q.plan_changed = q.plan_hash != cq.plan_hash();
      if (q.plan_changed && first.compiled->physical) {
        q.plan_diff = reexec::describe_join_changes(captured_joins(cq.plan()),
                                                    reexec::plan_joins(*first.compiled->physical, nullptr));
        if (q.plan_diff.empty()) q.plan_diff = "same joins; other operators differ";
      }
      if (first.executed.exec) {
        q.qerror_after = worst_q_error(*first.compiled, first.executed).q_error;
        q.work_after = plan_work(*first.compiled, first.executed).work;
      }
    }
    if (promote && staging) {
      q.promoted = promotion_allowed(q);
      if (q.promoted) staging->commit();
      else staging->discard();
    }
    out.queries.push_back(std::move(q));
  }
  if (in.progress) in.progress(mode, total, total, "");
  out.summary = summarize(out.queries);
  return out;
}

/// Length-prefixed fields, so that no two different lists of strings give the same bytes.
void put_field(std::string& out, const std::string& field) {
  out += fmt::format("{}:", field.size());
  out += field;
}

std::string digest_hex(const std::string& bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

std::vector<Measured> stored_measured(const stats::OracleRun& run) {
  std::vector<Measured> out;
  for (auto& q : run.queries) out.push_back({q.name, q.ok, q.ms, q.work});
  return out;
}

/// The oracle figures for a replay without an oracle mode: the store's oracle replay of this workload on this
/// data, when there is one (the note says where they came from, or why there are none).
std::optional<std::vector<Measured>> oracle_from_store(const ReplayInput& in, const std::string& wkey,
                                                       const std::string& dkey, OracleSource& source) {
  std::vector<stats::OracleRun> runs;
  try {
    runs = in.load_oracle(wkey);
  } catch (...) {
    source.note = "no oracle figures: the store's oracle replays could not be read: " + current_exception_as_error().message();
    return std::nullopt;
  }
  const stats::OracleRun* same = nullptr;
  int64_t other_latest = 0;
  for (auto& r : runs) {
    if (r.data_key == dkey) same = &r;
    else other_latest = std::max(other_latest, r.recorded_ms);
  }
  if (same && !same->queries.empty()) {
    source.kind = OracleSource::Kind::Store;
    source.recorded_ms = same->recorded_ms;
    source.queries = same->queries.size();
    source.note = fmt::format("oracle figures: from the store, an oracle replay of this workload on this data recorded {}",
                              utc_time_text(same->recorded_ms));
    if (same->corrupt_rows > 0)
      source.note += fmt::format(" ({} unreadable {} left out)", same->corrupt_rows, same->corrupt_rows == 1 ? "row" : "rows");
    return stored_measured(*same);
  }
  if (same)
    source.note = fmt::format("no oracle figures: the store's oracle replay of this workload on this data has no "
                              "readable row ({} left out)", same->corrupt_rows);
  else if (!runs.empty())
    source.note = fmt::format("no oracle figures: the store's oracle replay of this workload was measured on other "
                              "data (recorded {}), not used", utc_time_text(other_latest));
  else
    source.note = "no oracle figures: the store has no oracle replay of this workload (--feedback oracle --store PATH "
                  "records one)";
  return std::nullopt;
}

}  // namespace

std::string workload_key(const Workload& w, const std::vector<std::pair<std::string, std::string>>& sets) {
  std::string bytes = "hindsight-workload-key-1|";
  for (const Setting& s : w.settings()) {
    put_field(bytes, s.name());
    put_field(bytes, s.value());
  }
  bytes += "|";
  for (auto& [k, v] : sets) {
    put_field(bytes, k);
    put_field(bytes, v);
  }
  for (const CapturedQuery& q : w.queries()) {
    bytes += "|";
    put_field(bytes, q.name());
    put_field(bytes, q.sql());
    for (const Setting& s : q.settings()) {
      put_field(bytes, s.name());
      put_field(bytes, s.value());
    }
  }
  return digest_hex(bytes);
}

std::string data_key(const Workload& w, Database& db) {
  std::vector<std::string> tables;
  for (const TableInfo& t : w.tables()) {
    std::string one;
    put_field(one, t.name());
    try {
      LoadInfo info;  // the version and row count only: its columns are not loaded
      TablePtr table = db.table(t.name(), info);
      put_field(one, fmt::format("{:016x}", table->data_version));
      put_field(one, std::to_string(table->row_count));
    } catch (...) {
      put_field(one, "missing");
    }
    tables.push_back(std::move(one));
  }
  std::sort(tables.begin(), tables.end());
  std::string bytes = "hindsight-data-key-1";
  for (auto& t : tables) bytes += "|" + t;
  return digest_hex(bytes);
}

std::string utc_time_text(int64_t unix_ms) {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  if (!gmtime_r(&t, &tm)) return "?";
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

std::string feedback_name(Feedback f) {
  switch (f) {
    case Feedback::Off: return "off";
    case Feedback::On: return "on";
    case Feedback::Oracle: return "oracle";
  }
  return "?";
}

Feedback parse_feedback(const std::string& name) {
  if (name == "off") return Feedback::Off;
  if (name == "on") return Feedback::On;
  if (name == "oracle") return Feedback::Oracle;
  throw hindsight::Error(ErrorCode::BIND_ERROR,
                         fmt::format("--feedback expects off, on or oracle (a comma list), got '{}'", name));
}

bool promotion_allowed(const QueryReplay& q) {
  return q.ok && q.results_match == true &&
         q.replayed_ms <= std::max(kChangeBand * q.captured_ms, q.captured_ms + kPromoteSlackMs);
}

bool ReplayReport::results_differ() const {
  for (auto& m : modes)
    if (m.summary.results_differ > 0) return true;
  return false;
}

std::vector<reexec::PlanJoin> captured_joins(const PlanNode& root) {
  std::vector<reexec::PlanJoin> out;
  collect_captured_joins(root, out);
  return out;
}

std::vector<std::string> changed_tables(const Workload& w, Database& db, std::vector<std::string>* names) {
  std::vector<std::string> out;
  for (const TableInfo& t : w.tables()) {
    std::string now_version, what;
    uint64_t now_rows = 0;
    try {
      LoadInfo info;  // the version and row count only: its columns are not loaded
      TablePtr table = db.table(t.name(), info);
      now_version = fmt::format("{:016x}", table->data_version);
      now_rows = table->row_count;
    } catch (...) {
      what = "missing now";
    }
    if (what.empty()) {
      if (t.data_version() == now_version && t.row_count() == now_rows) continue;
      what = t.row_count() != now_rows ? fmt::format("rows {} -> {}", t.row_count(), now_rows) : "same rows";
      what += fmt::format(", data version {} -> {}", t.data_version().empty() ? "?" : t.data_version(), now_version);
    }
    out.push_back(fmt::format("{} ({})", t.name(), what));
    if (names) names->push_back(t.name());
  }
  return out;
}

ReplayReport replay_workload(const Workload& w, const ReplayInput& in) {
  ReplayReport report;
  const std::string wkey = workload_key(w, in.sets);
  std::string dkey;
  {
    std::unique_ptr<Database> db = in.open_db();
    dkey = data_key(w, *db);
    std::vector<std::string> names;
    const auto changed = changed_tables(w, *db, &names);
    if (!changed.empty()) {
      std::string list;
      for (auto& c : changed) list += (list.empty() ? "" : ", ") + c;
      report.data_warning = fmt::format(
          "the workload was captured on other data: {} {} differ; results of the queries reading {} may differ "
          "and are not counted as wrong",
          changed.size() == 1 ? "table" : "tables", list, changed.size() == 1 ? "it" : "them");
    }
    const std::set<std::string> changed_names(names.begin(), names.end());
    for (Feedback mode : in.modes) report.modes.push_back(replay_mode(w, in, mode, changed_names, report));
  }
  const ModeReplay* oracle = nullptr;
  for (auto& m : report.modes)
    if (m.feedback == Feedback::Oracle) oracle = &m;
  std::optional<std::vector<Measured>> o;
  if (oracle) {
    o = replayed(oracle->queries);
    report.oracle_source.kind = OracleSource::Kind::SameRun;
    report.oracle_source.note = "oracle figures: this run's oracle replay";
    if (in.save_oracle) {
      stats::OracleRun run;
      run.workload_key = wkey;
      run.data_key = dkey;
      run.recorded_ms = stats::unix_now_ms();
      for (auto& q : oracle->queries) run.queries.push_back({q.name, q.ok, q.replayed_ms, q.work_after, q.plan_hash});
      try {
        in.save_oracle(run);
        report.oracle_recorded = true;
        report.oracle_source.note += " (recorded in the store for later replays of this workload on this data)";
      } catch (...) {
        report.oracle_record_error = current_exception_as_error().message();
      }
    }
  } else if (in.load_oracle) {
    o = oracle_from_store(in, wkey, dkey, report.oracle_source);
  }
  if (o) {
    // The capture's queries and their figures are the same whichever mode's list they are read from.
    const std::vector<QueryReplay>& any = report.modes.empty() ? std::vector<QueryReplay>{} : report.modes[0].queries;
    report.oracle.emplace_back("captured", compare_with_oracle(captured(any), *o));
    for (auto& m : report.modes)
      if (&m != oracle) report.oracle.emplace_back(feedback_name(m.feedback), compare_with_oracle(replayed(m.queries), *o));
  }
  return report;
}

nlohmann::json replay_json(const ReplayReport& r) {
  auto mode_json = [](const ModeReplay& m) {
    nlohmann::json j = {{"feedback", feedback_name(m.feedback)}, {"queries", nlohmann::json::array()}};
    for (auto& q : m.queries) j["queries"].push_back(query_json(q));
    j["summary"] = summary_json(m.summary);
    return j;
  };
  nlohmann::json out;
  if (r.modes.size() == 1) {
    out = mode_json(r.modes[0]);
  } else {
    out["replays"] = nlohmann::json::array();
    for (auto& m : r.modes) out["replays"].push_back(mode_json(m));
  }
  if (!r.oracle.empty()) {
    nlohmann::json c = nlohmann::json::object();
    for (auto& [name, cmp] : r.oracle) c[name] = oracle_json(cmp);
    out["oracle_comparison"] = c;
  }
  if (r.oracle_source.kind != OracleSource::Kind::None || !r.oracle_source.note.empty()) {
    const auto kind = r.oracle_source.kind;
    nlohmann::json src = {{"from", kind == OracleSource::Kind::SameRun ? "same_run"
                                    : kind == OracleSource::Kind::Store ? "store"
                                                                        : "none"},
                          {"note", r.oracle_source.note}};
    if (kind == OracleSource::Kind::Store) {
      src["recorded_ms"] = r.oracle_source.recorded_ms;
      src["recorded_at"] = utc_time_text(r.oracle_source.recorded_ms);
      src["queries"] = r.oracle_source.queries;
    }
    if (kind == OracleSource::Kind::SameRun) src["recorded_in_store"] = r.oracle_recorded;
    if (!r.oracle_record_error.empty()) src["record_error"] = r.oracle_record_error;
    out["oracle_source"] = src;
  }
  if (!r.data_warning.empty()) out["data_warning"] = r.data_warning;
  if (!r.warnings.empty()) out["warnings"] = r.warnings;
  return out;
}

std::string replay_report_text(const ReplayReport& r, bool verbose) {
  std::string out;
  if (verbose) {
    for (size_t i = 0; i < r.modes.size(); ++i) {
      out += replay_text(feedback_name(r.modes[i].feedback) + " (" + mode_settings_note(r.modes[i].feedback) + ")",
                         r.modes[i].queries, r.modes[i].summary);
      out += "\n";
    }
    if (!r.oracle.empty()) {
      for (auto& [name, cmp] : r.oracle) out += oracle_text(name, cmp);
      out += "\n";
    }
  }
  const auto vs_oracle = [&r](const std::string& run) -> std::optional<OracleComparison> {
    for (auto& [name, cmp] : r.oracle)
      if (name == run) return cmp;
    return std::nullopt;
  };
  std::vector<SummaryRow> rows;
  if (!r.oracle.empty()) rows.push_back({"captured", nullptr, nullptr, vs_oracle("captured")});
  for (const ModeReplay& m : r.modes)
    rows.push_back({feedback_name(m.feedback), &m.summary, &m.queries, vs_oracle(feedback_name(m.feedback))});
  out += summary_table_text(rows);
  if (!r.oracle_source.note.empty()) out += r.oracle_source.note + "\n";
  if (!verbose) out += "per query: --verbose (text) or --format json\n";
  return out;
}

}  // namespace hindsight::workload
