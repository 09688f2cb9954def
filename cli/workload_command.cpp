// `hindsight capture`, `hindsight workload show` and `hindsight replay`: run a workload's statements and write
// what they did to a workload file; print one; replay one and compare (reexec/workload, docs/workload.md).
#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "planner/common/error.hpp"
#include "reexec/workload/capture.hpp"
#include "reexec/workload/replay.hpp"
#include "stats_store/sqlite_store.hpp"
#include "stats_store/store_error.hpp"
#include "reexec/workload/workload_file.hpp"

namespace hindsight::cli {

namespace {

struct CaptureOptions {
  std::string data, queries, out, store, from_store, since;
  std::vector<std::string> sets;
};

int capture(const CaptureOptions& o) {
  if (o.queries.empty() == o.from_store.empty()) {
    std::cerr << "capture: give one of --queries FILE.sql or --from-store PATH\n";
    return 2;
  }
  std::optional<int64_t> since;
  if (!o.since.empty() && (o.from_store.empty() || !(since = parse_duration_ms(o.since)))) {
    std::cerr << (o.from_store.empty() ? std::string("--since needs --from-store\n")
                                       : fmt::format("--since: '{}' is not a duration (e.g. 30d, 12h, 90m, 45s, 2w)\n",
                                                     o.since));
    return 2;
  }
  try {
    std::string sql;
    if (o.from_store.empty()) {
      sql = read_sql_file(o.queries);
    } else {
      const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
      std::vector<std::string> skipped;
      sql = workload::workload_sql_from_texts(workload::store_query_texts(o.from_store, since ? now_ms - *since : 0),
                                              &skipped);
      for (auto& s : skipped) std::cerr << "warning: --from-store: " << s << " (left out)\n";
      if (sql.empty())
        throw Error(ErrorCode::DATA_ERROR, fmt::format("the stats store '{}' recorded no query to capture{}",
                                                       o.from_store, since ? " since " + o.since + " ago" : ""));
    }
    Database db(o.data);
    for (const auto& w : db.catalog().warnings) std::cerr << "warning: " << w << "\n";
    Session session(db);
    if (!configure_session(session, o.data, o.store, o.sets)) return 2;
    workload::CaptureInput in;
    in.session = &session;
    in.db = &db;
    in.sql_text = sql;
    in.queries_file = o.from_store.empty() ? o.queries : "store:" + o.from_store;
    for (auto& kv : o.sets) in.sets.emplace_back(kv.substr(0, kv.find('=')), kv.substr(kv.find('=') + 1));
    ProgressBar bar;
    in.progress = [&bar](size_t i, size_t total, const std::string& name) { bar.update(i, total, name); };
    workload::Workload w = workload::capture_workload(in);
    bar.clear();
    workload::write_workload(w, o.out);
    size_t failed = 0;
    for (auto& q : w.queries()) {
      if (!q.ok()) ++failed;
      for (auto& warning : q.warnings()) std::cerr << "warning: " << q.name() << ": " << warning << "\n";
    }
    std::cerr << fmt::format("captured {} queries ({} failed) into {}\n", w.queries_size(), failed, o.out);
    return 0;
  } catch (...) {
    std::cerr << current_exception_as_error().format() << "\n";
    return 1;
  }
}

int show(const std::string& path, const std::string& format) {
  try {
    workload::Workload w = workload::read_workload(path);
    std::cout << (format == "json" ? workload::workload_json(w) + "\n" : workload::workload_text(w));
    return 0;
  } catch (...) {
    std::cerr << current_exception_as_error().format() << "\n";
    return 1;
  }
}

struct ReplayOptions {
  std::string file, data, feedback = "off", store, format = "text";
  std::vector<std::string> sets;
  int repeat = 1;
  bool promote = false;
  bool verbose = false;
};

int replay(const ReplayOptions& o) {
  std::vector<workload::Feedback> modes;
  std::vector<std::pair<std::string, std::string>> sets;
  try {
    std::stringstream list(o.feedback);
    std::string item;
    while (std::getline(list, item, ','))
      if (!item.empty()) modes.push_back(workload::parse_feedback(item));
    if (modes.empty()) modes.push_back(workload::Feedback::Off);
  } catch (...) {
    std::cerr << current_exception_as_error().format() << "\n";
    return 2;
  }
  if (o.promote && std::find(modes.begin(), modes.end(), workload::Feedback::On) == modes.end()) {
    std::cerr << "--promote needs --feedback on (it decides which of the replay's observations reach the store)\n";
    return 2;
  }
  for (auto& kv : o.sets) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) {
      std::cerr << "--set expects name=value, got '" << kv << "'\n";
      return 2;
    }
    sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  try {
    workload::Workload w = workload::read_workload(o.file);
    {
      Database db(o.data);
      for (const auto& warning : db.catalog().warnings) std::cerr << "warning: " << warning << "\n";
    }
    const std::string store =
        o.store.empty() ? (std::filesystem::path(o.data) / ".hindsight" / "stats.db").string() : o.store;
    workload::ReplayInput in;
    in.open_db = [&o] { return std::make_unique<Database>(o.data); };
    in.configure = [&o](Session& session) { configure_session(session, o.data, o.store, {}); };
    in.open_store = [store](std::vector<std::string>& warnings) { return stats::open_stats_store(store, warnings); };
    in.modes = modes;
    in.sets = sets;
    if (!o.store.empty()) {
      // The oracle's figures per workload and data: an oracle mode records them, a replay without one compares
      // with them (docs/workload.md). Written in one transaction; looked up through a read-only connection.
      const std::string path = o.store;
      in.save_oracle = [path](const stats::OracleRun& run) {
        stats::SqliteStatsStore s(path);
        if (!s.writable()) {
          std::string why;
          for (auto& w : s.take_warnings()) why += (why.empty() ? "" : "; ") + w;
          throw Error(ErrorCode::IO_ERROR, why.empty() ? path + ": the store cannot be written" : why);
        }
        try {
          s.record_oracle_run(run);
        } catch (const stats::StoreError& e) {
          throw Error(ErrorCode::IO_ERROR, fmt::format("STORE_ERROR: {}: recording the oracle replay failed: {}", path, e.what()));
        }
      };
      in.load_oracle = [path](const std::string& key) -> std::vector<stats::OracleRun> {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) return {};
        stats::SqliteStatsStore::Options ro;
        ro.read_only = true;
        stats::SqliteStatsStore s(path, ro);
        try {
          return s.oracle_runs(key);
        } catch (const stats::StoreError& e) {
          throw Error(ErrorCode::IO_ERROR, fmt::format("STORE_ERROR: {}", e.what()));
        }
      };
    }
    in.repeat = o.repeat;
    in.promote = o.promote;
    ProgressBar bar;
    in.progress = [&bar](workload::Feedback mode, size_t i, size_t total, const std::string& name) {
      bar.update(i, total, fmt::format("{} (feedback {})", name, workload::feedback_name(mode)));
    };
    workload::ReplayReport report = workload::replay_workload(w, in);
    bar.clear();
    if (!report.data_warning.empty()) std::cerr << "warning: " << report.data_warning << "\n";
    for (auto& warning : report.warnings) std::cerr << "warning: " << warning << "\n";
    std::cout << (o.format == "json" ? workload::replay_json(report).dump(2) + "\n" : workload::replay_report_text(report, o.verbose));
    if (!report.oracle_record_error.empty()) {
      std::cerr << "error: the oracle replay was not recorded in the store: " << report.oracle_record_error << "\n";
      return 1;
    }
    if (report.results_differ()) {
      std::cerr << "error: some replayed results differ from the captured ones on the same data\n";
      return 1;
    }
    return 0;
  } catch (...) {
    std::cerr << current_exception_as_error().format() << "\n";
    return 1;
  }
}

}  // namespace

void add_workload_commands(CLI::App& app, int& exit_code) {
  static CaptureOptions c;
  auto* cap = app.add_subcommand(
      "capture", "Run every statement of a SQL file (through re-execution, as `query` does) and write what each query "
                 "did to a workload file: its plan with estimated and actual rows, every attempt, a digest of its rows");
  cap->add_option("--data", c.data, "Data folder with catalog.json (see `hindsight gen`)")->required();
  auto* queries = cap->add_option("--queries", c.queries,
                                  "SQL file: statements separated by ';'; a '-- name: X' line before a query names it "
                                  "(else q1, q2, ...); SET statements apply to the queries after them");
  cap->add_option("--from-store", c.from_store,
                  "Instead of --queries: every query text this stats store recorded, oldest first (named by a "
                  "'-- name: X' line in it, else s1, s2, ...), captured as if it were a SQL file")
      ->excludes(queries);
  cap->add_option("--since", c.since, "With --from-store: only queries last seen this long ago or later (30d, 12h, "
                                      "90m, 45s, 2w)");
  cap->add_option("--out", c.out, "Workload file to write (.hsw)")->required();
  cap->add_option("--store", c.store, "Stats store file (default: <data>/.hindsight/stats.db)");
  cap->add_option("--set", c.sets, "Setting as name=value for every query (repeatable; see README)");
  cap->callback([&exit_code] { exit_code = capture(c); });

  static std::string path, format = "text";
  auto* wl = app.add_subcommand("workload", "Inspect workload files written by `hindsight capture`");
  wl->require_subcommand(1);
  auto* sh = wl->add_subcommand("show", "Print a workload: its tables and data versions, and per query its status, "
                                        "rows, attempts and times (--format json: every field, plans included)");
  sh->add_option("file", path, "The workload file")->required();
  sh->add_option("--format", format, "text|json")->check(CLI::IsMember({"text", "json"}));
  sh->callback([&exit_code] { exit_code = show(path, format); });

  static ReplayOptions r;
  auto* rp = app.add_subcommand(
      "replay", "Re-plan and re-execute every query of a workload file and compare each with its capture: results "
                "(digest), plan, time, work, q-error, attempts; a summary per feedback mode (exit code 1 when a "
                "result differs on the same data)");
  rp->add_option("file", r.file, "The workload file (from `hindsight capture`)")->required();
  rp->add_option("--data", r.data, "Data folder with catalog.json (the capture's, or other data: a warning names "
                                   "the tables that differ)")
      ->required();
  rp->add_option("--feedback", r.feedback,
                 "off (the model alone: stats_scope=off), on (the store plus what the replay observes: "
                 "stats_scope=persistent), oracle (cardinality=oracle), or a comma list replayed in turn (with "
                 "oracle, the others are compared with it). Default: off");
  rp->add_option("--store", r.store,
                 "Stats store file of feedback on (default: <data>/.hindsight/stats.db). Given explicitly, an oracle "
                 "replay records its figures there, and a replay without oracle is compared with the oracle replay "
                 "of the same workload on the same data recorded there");
  rp->add_option("--repeat", r.repeat, "Timed runs per query: with N > 1 the query runs once (a warm-up: planning, the "
                                "oracle's counting, learning), then its plan is executed N times; its time is its "
                                "planning plus their median (default 1)")
      ->check(CLI::Range(1, 1000));
  rp->add_flag("--promote", r.promote,
               "With feedback on: record into a scratch scope and write a query's observations to the store only "
               "when its results matched and it was not slower than captured (<= max(1.1x, +5 ms))");
  rp->add_option("--set", r.sets, "Setting as name=value for every query, after the workload's (repeatable)");
  rp->add_option("--format", r.format,
                 "text (a summary table per feedback mode and the queries that need a look) | json (every query)")
      ->check(CLI::IsMember({"text", "json"}));
  rp->add_flag("--verbose", r.verbose, "Text: every query of every mode (status, result, plan diff, times, work, "
                                       "q-errors) before the summary table");
  rp->callback([&exit_code] { exit_code = replay(r); });
}

}  // namespace hindsight::cli
