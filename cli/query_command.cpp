// `hindsight query` and `hindsight explain`: parse flags, run the statement, print the result.
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/result_format.hpp"
#include "mapper/mapper_export.hpp"
#include "planner/common/text.hpp"
#include "planner/session/explain.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/session/settings.hpp"
#include "reexec/driver.hpp"
#include "stats_store/sqlite_store.hpp"

namespace hindsight::cli {

namespace {

struct QueryOptions {
  std::string data;
  std::string store;
  std::vector<std::string> sets;
  std::string format;
  std::string file;
  std::string sql;
  std::string reexec;  ///< --reexec LIST: reexec_strategies
  bool analyze = false;
  bool reoptimize = false;  ///< explain --reoptimize: EXPLAIN REOPTIMIZATION
  bool all_groups = false;
};

void add_common(CLI::App* cmd, QueryOptions& o, const std::string& formats) {
  cmd->add_option("--data", o.data, "Data folder with catalog.json (see `hindsight gen`)")->required();
  cmd->add_option("--store", o.store, "Stats store file (default: <data>/.hindsight/stats.db)");
  std::string names;
  for (const auto& n : setting_names()) names += (names.empty() ? "" : ", ") + n;
  cmd->add_option("--set", o.sets,
                  "Setting as name=value, same as SET name = value (repeatable): " + names + " (see README)")
      ->allow_extra_args(false);
  cmd->add_option("--format", o.format, "Output format: " + formats)->check(CLI::IsMember(
      [&] {
        std::vector<std::string> v;
        std::stringstream in(formats);
        std::string f;
        while (std::getline(in, f, '|')) v.push_back(f);
        return v;
      }()));
  cmd->add_option("--reexec", o.reexec,
                  "Re-execution strategies, same as --set reexec_strategies=LIST: a comma-separated list of "
                  "reoptimize (re-plan with what a failed attempt observed, after MEMORY_LIMIT_EXCEEDED or "
                  "TIMEOUT), overlay (apply reexec_overlay settings), retry (re-run after TRANSIENT), misestimate "
                  "(re-plan a successful attempt whose worst q-error exceeds reexec_qerror_threshold), slow "
                  "(re-plan an attempt slower than reexec_slow_factor x what its cost predicts, or than "
                  "reexec_slow_ms), spill (after MEMORY_LIMIT_EXCEEDED, let the next attempts spill to disk: SET spill); "
                  "misestimate and slow run the better plan now with "
                  "reexec_on_misestimate=rerun, else only learn; none = one attempt. Default: all six");
  cmd->add_option("-f,--file", o.file, "Read the SQL from this file");
  cmd->add_option("sql", o.sql, "The SQL text (or use -f)");
}

enum class Command { Query, Explain, Groups };

/// A statement file larger than this is refused; it is read in chunks, so `-f /dev/zero` stops here too.
constexpr size_t kMaxSqlFileBytes = size_t{64} << 20;

}  // namespace

bool configure_session(Session& session, const std::string& data, const std::string& store_path,
                       const std::vector<std::string>& sets) {
  // The persistent stats scope: opened when the first statement that uses it runs.
  const std::string store = store_path.empty() ? (std::filesystem::path(data) / ".hindsight" / "stats.db").string() : store_path;
  // The store trims itself by the session's stats_retention as it is when the store is first used.
  session.set_persistent_stats([store, &session](std::vector<std::string>& warnings) {
    return stats::open_stats_store(store, warnings, session.settings().stats_retention_ms);
  });
  for (auto& kv : sets) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) {
      std::cerr << "--set expects name=value, got '" << kv << "'\n";
      return false;
    }
    apply_setting(session.settings(), kv.substr(0, eq), kv.substr(eq + 1));
  }
  // Query statements go through the re-execution driver (reexec_strategies = none: one attempt).
  session.set_statement_runner(std::make_shared<reexec::ReExecDriver>());
  return true;
}

std::string read_sql_file(const std::string& path) {
  const std::string shown = printable(path);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(ErrorCode::IO_ERROR, fmt::format("cannot read SQL file '{}': it is a directory", shown));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw Error(ErrorCode::IO_ERROR, fmt::format("cannot read SQL file '{}': {}", shown, std::strerror(errno)));
  std::string sql;
  std::vector<char> chunk(size_t{1} << 20);
  while (true) {
    size_t n = std::fread(chunk.data(), 1, chunk.size(), f.get());
    if (n == 0) break;
    if (sql.size() + n > kMaxSqlFileBytes)
      throw Error(ErrorCode::IO_ERROR,
                  fmt::format("SQL file '{}' is larger than {} MB, the limit for a statement file", shown,
                              kMaxSqlFileBytes >> 20));
    sql.append(chunk.data(), n);
  }
  if (std::ferror(f.get()))
    throw Error(ErrorCode::IO_ERROR, fmt::format("cannot read SQL file '{}': {}", shown, std::strerror(errno)));
  return sql;
}

namespace {

/// EXPLAIN REOPTIMIZATION: the plan made with what the run observed (each estimate with its source),
/// what changed against the plan that ran, and that plan with its actual rows.
void print_reoptimization(StatementResult& r, const Settings& settings, bool json) {
  const ExecutedQuery* run = r.executed.exec ? &r.executed : nullptr;
  const std::string before = plan_hash(*r.compiled);
  const std::string after = r.reoptimized ? plan_hash(*r.reoptimized) : "";
  const bool changed = r.reoptimized && after != before;
  if (json) {
    auto ran_mapping = map_query(*r.compiled, run, settings);
    nlohmann::json ran = explain_json(*r.compiled, run, ran_mapping.get());
    ran["plan_hash"] = before;
    ran["cost"] = plan_cost(*r.compiled);
    nlohmann::json j;
    if (r.reoptimized) {
      auto mapping = map_query(*r.reoptimized, nullptr, settings);
      j = explain_json(*r.reoptimized, nullptr, mapping.get());
    } else {
      j = {{"logical", nullptr}, {"physical", nullptr}};
    }
    j["reoptimization"] = {{"plan_changed", changed},
                           {"change", r.reoptimize_change.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.reoptimize_change)},
                           {"plan_hash_before", before},
                           {"plan_hash_after", r.reoptimized ? nlohmann::json(after) : nlohmann::json(nullptr)},
                           {"cost_before_observed", run && !r.error ? nlohmann::json(plan_cost_observed(*r.compiled, r.executed, settings))
                                                                    : nlohmann::json(nullptr)},
                           {"cost_after", r.reoptimized ? nlohmann::json(plan_cost(*r.reoptimized)) : nlohmann::json(nullptr)}};
    j["ran"] = std::move(ran);
    if (r.regression_guard) j["regression_guard"] = regression_guard_json(r);
    std::cout << json_text(j, 2) << "\n";
    return;
  }
  if (!r.reoptimized) {
    std::cout << "The query ran; the re-plan with what it observed failed (see the warnings).\n";
  } else {
    std::cout << "Re-optimized with what the run observed (estimate sources: runtime = this sub-plan observed, "
                 "join_set = the same join set, template = other constants, model = no observation):\n";
    std::cout << explain_text(*r.reoptimized, nullptr);
    if (changed)
      std::cout << fmt::format("Changed: plan {} -> {}{}\n", before, after,
                               r.reoptimize_change.empty() ? " (not in its joins)" : "; " + r.reoptimize_change);
    if (changed && run && !r.error)
      std::cout << fmt::format("Predicted cost: {:.0f} (the plan that ran, re-estimated with the observed rows) -> {:.0f}\n",
                               plan_cost_observed(*r.compiled, r.executed, settings), plan_cost(*r.reoptimized));
    else
      std::cout << fmt::format("Unchanged: the same plan ({}) with what the run observed\n", before);
  }
  std::cout << "\nThe plan that ran:\n" << explain_text(*r.compiled, run);
}

/// Returns the exit code.
int run(QueryOptions& o, Command command) {
  const bool explain = command != Command::Query;
  const bool json = o.format == "json";
  auto fail = [&](const Error& e, const StatementResult* r) {
    std::cerr << e.format() << "\n";
    if (json) {
      StatementResult empty;
      if (!r) {
        empty.error = e;
        empty.attempts.push_back(Attempt::only(e));
        r = &empty;
      }
      std::cout << json_text(explain ? nlohmann::json{{"error", error_json(e)}} : format_json(*r)) << "\n";
    }
    return 1;
  };
  if (o.sql.empty() == o.file.empty()) {
    std::cerr << "give the SQL either as an argument or with -f FILE (not both)\n";
    return 2;
  }
  // The CLI's exception boundary: every failure, whatever its type, is reported as a typed error (and the JSON
  // object with --format json) with exit code 1.
  try {
    std::string sql = o.file.empty() ? o.sql : read_sql_file(o.file);
    Database db(o.data);
    for (const auto& w : db.catalog().warnings) std::cerr << "warning: " << w << "\n";
    Session session(db);
    if (!configure_session(session, o.data, o.store, o.sets)) return 2;
    if (!o.reexec.empty()) apply_setting(session.settings(), "reexec_strategies", o.reexec);
    StatementResult r = session.run_script(sql, explain, o.analyze, o.reoptimize);
    for (const auto& line : reexec::describe_attempts(r)) std::cerr << line << "\n";
    for (const auto& w : r.warnings) std::cerr << "warning: " << w << "\n";
    if (r.is_explain && r.reoptimization && command != Command::Groups && r.compiled) {
      print_reoptimization(r, session.settings(), json);
      if (r.error) std::cerr << r.error->format() << "\n";
      return r.error ? 1 : 0;
    }
    if (r.is_explain && r.compiled) {
      const ExecutedQuery* run = r.analyze ? &r.executed : nullptr;
      auto mapping = map_query(*r.compiled, run, session.settings());
      if (command == Command::Groups) {
        if (json) std::cout << json_text(mapper::to_json(mapping->mapper, !o.all_groups), 2) << "\n";
        else if (o.format == "dot") std::cout << mapper::to_dot(mapping->mapper);
        else std::cout << mapper::to_text(mapping->mapper, !o.all_groups);
      } else if (json) {
        nlohmann::json j = explain_json(*r.compiled, run, mapping.get());
        if (r.regression_guard) j["regression_guard"] = regression_guard_json(r);  // the plan shown is the guard's
        if (r.oracle)
          j["oracle"] = {{"subplans", r.oracle->subplans}, {"skipped", r.oracle->skipped},
                         {"cap", r.oracle->cap}, {"elapsed_ms", r.oracle->elapsed_ms}};
        std::cout << json_text(j, 2) << "\n";
      } else {
        std::cout << explain_text(*r.compiled, run, mapping.get());
        if (r.oracle) std::cout << r.oracle->describe() << "\n";
      }
      if (r.error) std::cerr << r.error->format() << "\n";
      return r.error ? 1 : 0;
    }
    if (r.error) return fail(*r.error, &r);
    if (!r.compiled) return 0;  // only SET statements
    if (json) write_json(r, std::cout);
    else if (o.format == "csv") write_csv(r, std::cout);
    else write_table(r, std::cout);
    return 0;
  } catch (...) {
    return fail(current_exception_as_error(), nullptr);
  }
}

}  // namespace

void add_query_commands(CLI::App& app, int& exit_code) {
  static QueryOptions q, e;
  q.format = "table";
  e.format = "text";
  auto* query = app.add_subcommand("query", "Run a SQL query (or a script; SET statements apply to what follows) and print its rows");
  add_common(query, q, "table|csv|json");
  query->callback([&exit_code] { exit_code = run(q, Command::Query); });

  auto* explain = app.add_subcommand("explain", "Show the plan of a query: operators, estimated rows, and with --analyze "
                                                "the actual rows, q-error and time of each operator");
  add_common(explain, e, "text|json");
  explain->add_flag("--analyze", e.analyze, "Run the query and show what each operator actually did");
  explain->add_flag("--reoptimize", e.reoptimize,
                    "EXPLAIN REOPTIMIZATION: run the query, plan it again with what it observed and show that plan "
                    "(each estimate's source), what changed, and the plan that ran");
  explain->callback([&exit_code] { exit_code = run(e, Command::Explain); });

  static QueryOptions g;
  g.format = "text";
  auto* groups = app.add_subcommand(
      "groups", "Show the equivalence groups of a query: which AST nodes, logical, physical and executable operators "
                "and signatures denote the same computation, the stages that linked them, and refused links");
  add_common(groups, g, "text|json|dot");
  groups->add_flag("--analyze", g.analyze, "Run the query and show the rows observed on each group");
  groups->add_flag("--all", g.all_groups, "Also list groups with a single member");
  groups->callback([&exit_code] { exit_code = run(g, Command::Groups); });
}

}  // namespace hindsight::cli
