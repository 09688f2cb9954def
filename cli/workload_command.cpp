// `hindsight capture` and `hindsight workload show`: run a workload's statements and write what they did to a
// workload file; print one (reexec/workload, docs/workload.md).
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

#include "cli/commands.hpp"
#include "planner/common/error.hpp"
#include "reexec/workload/capture.hpp"
#include "reexec/workload/workload_file.hpp"

namespace hindsight::cli {

namespace {

struct CaptureOptions {
  std::string data, queries, out, store;
  std::vector<std::string> sets;
};

int capture(const CaptureOptions& o) {
  try {
    const std::string sql = read_sql_file(o.queries);
    Database db(o.data);
    for (const auto& w : db.catalog().warnings) std::cerr << "warning: " << w << "\n";
    Session session(db);
    if (!configure_session(session, o.data, o.store, o.sets)) return 2;
    workload::CaptureInput in;
    in.session = &session;
    in.db = &db;
    in.sql_text = sql;
    in.queries_file = o.queries;
    for (auto& kv : o.sets) in.sets.emplace_back(kv.substr(0, kv.find('=')), kv.substr(kv.find('=') + 1));
    const bool tty = isatty(STDERR_FILENO);
    in.progress = [tty](size_t i, size_t total, const std::string& name) {
      if (!tty) return;
      if (i == total) std::cerr << "\r\033[K";
      else std::cerr << fmt::format("\r\033[Kcapturing {}/{} {}", i + 1, total, name) << std::flush;
    };
    workload::Workload w = workload::capture_workload(in);
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

}  // namespace

void add_workload_commands(CLI::App& app, int& exit_code) {
  static CaptureOptions c;
  auto* cap = app.add_subcommand(
      "capture", "Run every statement of a SQL file (through re-execution, as `query` does) and write what each query "
                 "did to a workload file: its plan with estimated and actual rows, every attempt, a digest of its rows");
  cap->add_option("--data", c.data, "Data folder with catalog.json (see `hindsight gen`)")->required();
  cap->add_option("--queries", c.queries,
                  "SQL file: statements separated by ';'; a '-- name: X' line before a query names it (else q1, q2, "
                  "...); SET statements apply to the queries after them")
      ->required();
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
}

}  // namespace hindsight::cli
