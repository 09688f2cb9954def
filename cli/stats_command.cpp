// `hindsight stats list | show SIG | summary | gc | export FILE | import FILE | clear`: inspection and
// maintenance of the persistent stats store (docs/stats-store.md). The work is SqliteStatsStore's; this
// file parses flags and prints.
#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/commands.hpp"
#include "cli/result_format.hpp"
#include "planner/session/regression_guard.hpp"
#include "stats_store/sqlite_store.hpp"
#include "stats_store/store_error.hpp"

namespace hindsight::cli {

namespace {

using stats::SignatureAggregate;
using stats::SqliteStatsStore;
using stats::StoreError;
using json = nlohmann::json;

struct StatsFlags {
  std::string store;
  std::string data;
  std::string format = "text";
  std::string sort = "observations";
  size_t limit = 50;
  std::string older_than = "30d";
  std::string arg;  // SIG or FILE
};

std::string store_path(const StatsFlags& f) {
  if (!f.store.empty()) return f.store;
  return (std::filesystem::path(f.data) / ".hindsight" / "stats.db").string();
}

std::string iso_time(int64_t ms) {
  if (ms <= 0) return "-";
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
  return buf;
}

std::string rows_text(double r) { return r == static_cast<double>(static_cast<int64_t>(r)) ? fmt::format("{}", static_cast<int64_t>(r)) : fmt::format("{:.1f}", r); }

json aggregate_json(const SignatureAggregate& a, bool with_inputs) {
  json j = {{"kind", stats::key_kind_name(a.kind)},
          {"signature", a.signature.hex()},
          {"signature_version", a.signature_version},
          {"operator", a.operator_name},
          {"canonical_text", a.canonical_text},
          {"observations", a.observations},
          {"exact_observations", a.exact_observations},
          {"lower_bound_only", a.lower_bound_only()},
          {"rows", a.lower_bound_only() ? a.max_lower_bound : a.last_rows},
          {"last_rows", a.last_rows},
          {"mean_rows", a.mean_rows()},
          {"min_rows", a.min_rows},
          {"max_rows", a.max_rows},
          {"max_lower_bound", a.max_lower_bound},
          {"confidence", a.answer().confidence},
          {"last_bytes", a.last_bytes},
          {"last_peak_memory", a.last_peak_memory},
          {"last_build_rows", a.last_build_rows},
          {"last_build_bytes", a.last_build_bytes},
          {"last_cpu_ns", a.last_cpu_ns},
          {"last_wall_ns", a.last_wall_ns},
          {"first_seen_ms", a.first_seen_ms},
          {"last_seen_ms", a.last_seen_ms}};
  if (with_inputs) {
    json inputs = json::array();
    for (const auto& t : a.inputs)
      inputs.push_back({{"table", t.name}, {"data_version", t.data_version}, {"rows", t.rows}});
    j["inputs"] = inputs;
  }
  return j;
}

std::string row_figure(const SignatureAggregate& a) {
  return a.lower_bound_only() ? ">=" + rows_text(a.max_lower_bound) : rows_text(a.last_rows);
}

void print_list(const std::vector<SignatureAggregate>& list, bool as_json) {
  if (as_json) {
    json out = json::array();
    for (const auto& a : list) out.push_back(aggregate_json(a, false));
    std::cout << json_text(json{{"signatures", out}}, 2) << "\n";
    return;
  }
  fmt::print("{:<8}  {:<32}  {:<12}  {:>6}  {:>12}  {:>12}  {:>12}  {}\n", "KIND", "SIGNATURE", "OPERATOR", "OBS",
             "ROWS", "MIN", "MAX", "LAST SEEN");
  for (const auto& a : list)
    fmt::print("{:<8}  {:<32}  {:<12.12}  {:>6}  {:>12}  {:>12}  {:>12}  {}\n", stats::key_kind_name(a.kind),
               a.signature.hex(), a.operator_name.empty() ? "-" : a.operator_name, a.observations, row_figure(a),
               a.exact_observations ? rows_text(a.min_rows) : "-", a.exact_observations ? rows_text(a.max_rows) : "-",
               iso_time(a.last_seen_ms));
  if (list.empty()) fmt::print("(no signatures)\n");
}

/// The regression guard's plans of a template (fastest first per template): the best, and which are demoted.
json plans_json(const std::vector<stats::PlanRecord>& plans) {
  json out = json::array();
  for (const auto& p : plans) {
    const auto& best = *std::find_if(plans.begin(), plans.end(), [&](const stats::PlanRecord& q) {
      return q.template_signature == p.template_signature;
    });
    const bool demoted = is_demoted(p, best);
    out.push_back({{"template_signature", p.template_signature}, {"plan_hash", p.plan_hash}, {"runs", p.runs},
                   {"best_ms", p.best_ms}, {"last_ms", p.last_ms}, {"first_seen_ms", p.first_seen_ms},
                   {"last_seen_ms", p.last_seen_ms}, {"status", &best == &p ? "best" : demoted ? "demoted" : "ok"},
                   {"query_text", p.query_text}});
  }
  return out;
}

void print_plans(const std::vector<stats::PlanRecord>& plans) {
  if (plans.empty()) return;
  const json rows = plans_json(plans);
  std::string current;
  for (const auto& r : rows) {
    if (r["template_signature"] != current) {
      current = r["template_signature"];
      fmt::print("plans of template {} (regression guard: a plan > {:.0f}% slower than the best is demoted):\n"
                 "  {:<16}  {:>5}  {:>10}  {:>10}  {:<8}  {}\n",
                 current, kGuardSlowerBy * 100, "PLAN", "RUNS", "BEST MS", "LAST MS", "STATUS", "LAST RUN");
    }
    fmt::print("  {:<16}  {:>5}  {:>10.1f}  {:>10.1f}  {:<8}  {}\n", r["plan_hash"].get<std::string>(),
               r["runs"].get<uint64_t>(), r["best_ms"].get<double>(), r["last_ms"].get<double>(),
               r["status"].get<std::string>(), iso_time(r["last_seen_ms"].get<int64_t>()));
  }
}

void print_show(const std::vector<stats::SignatureDetail>& details, const std::vector<stats::PlanRecord>& plans,
                bool as_json) {
  if (as_json) {
    json out = json::array();
    for (const auto& d : details) {
      json j = aggregate_json(d.aggregate, true);
      json obs = json::array();
      for (const auto& o : d.observations)
        obs.push_back({{"seq", o.seq}, {"rows", o.rows}, {"lower_bound", o.lower_bound}, {"bytes", o.bytes},
                       {"peak_memory", o.peak_memory}, {"build_bytes", o.build_bytes}, {"cpu_ns", o.cpu_ns},
                       {"wall_ns", o.wall_ns}, {"attempt", o.attempt}, {"succeeded", o.succeeded},
                       {"started_ms", o.started_ms}, {"plan_hash", o.plan_hash}, {"query_hash", o.query_hash},
                       {"query_text", o.query_text}});
      j["last_observations"] = obs;
      out.push_back(j);
    }
    std::cout << json_text(json{{"signatures", out}, {"plans", plans_json(plans)}}, 2) << "\n";
    return;
  }
  bool first = true;
  for (const auto& d : details) {
    const auto& a = d.aggregate;
    if (!first) fmt::print("\n");
    first = false;
    fmt::print("signature     {} ({}, signature version {})\n", a.signature.hex(), stats::key_kind_name(a.kind),
               a.signature_version);
    fmt::print("operator      {}\n", a.operator_name.empty() ? "-" : a.operator_name);
    fmt::print("canonical     {}\n", a.canonical_text.empty() ? "-" : a.canonical_text);
    fmt::print("observations  {} ({} exact{})\n", a.observations, a.exact_observations,
               a.lower_bound_only() ? ", lower bounds only" : "");
    if (a.lower_bound_only())
      fmt::print("rows          at least {}\n", rows_text(a.max_lower_bound));
    else
      fmt::print("rows          last {}  mean {}  min {}  max {}\n", rows_text(a.last_rows), rows_text(a.mean_rows()),
                 rows_text(a.min_rows), rows_text(a.max_rows));
    fmt::print("confidence    {:.2f}\n", a.answer().confidence);
    fmt::print("last figures  bytes {}  peak memory {}  build rows {}  build bytes {}  cpu {:.3f} ms  wall {:.3f} ms\n",
               a.last_bytes, a.last_peak_memory, a.last_build_rows, a.last_build_bytes, a.last_cpu_ns / 1e6,
               a.last_wall_ns / 1e6);
    fmt::print("seen          {} .. {}\n", iso_time(a.first_seen_ms), iso_time(a.last_seen_ms));
    for (size_t i = 0; i < a.inputs.size(); ++i)
      fmt::print("{}{} (data version {}, {} rows)\n", i == 0 ? "inputs        " : "              ", a.inputs[i].name,
                 a.inputs[i].data_version.empty() ? "?" : a.inputs[i].data_version, a.inputs[i].rows);
    fmt::print("last observations:\n  {:>5}  {:>12}  {:<5}  {:>7}  {:<21}  {}\n", "SEQ", "ROWS", "BOUND", "ATTEMPT",
               "STARTED", "QUERY");
    std::vector<std::pair<std::string, std::string>> queries;
    std::set<std::string> seen;
    for (const auto& o : d.observations) {
      fmt::print("  {:>5}  {:>12}  {:<5}  {:>7}  {:<21}  {}\n", o.seq, rows_text(o.rows), o.lower_bound ? "yes" : "no",
                 fmt::format("{}{}", o.attempt, o.succeeded ? "" : "!"), iso_time(o.started_ms),
                 o.query_hash.substr(0, 8));
      if (!o.query_hash.empty() && seen.insert(o.query_hash).second) queries.emplace_back(o.query_hash, o.query_text);
    }
    if (!queries.empty()) fmt::print("queries:\n");
    for (const auto& [hash, text] : queries) {
      std::string one_line = text;
      for (auto& c : one_line)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
      if (one_line.size() > 200) one_line = one_line.substr(0, 200) + "...";
      fmt::print("  {}  {}\n", hash.substr(0, 8), one_line);
    }
  }
  if (!plans.empty() && !details.empty()) fmt::print("\n");
  print_plans(plans);
}

void print_summary(const stats::StoreSummary& s, bool as_json) {
  if (as_json) {
    std::cout << json_text(json{{"path", s.path},
                      {"schema_version", s.schema_version},
                      {"file_bytes", s.file_bytes},
                      {"signatures", s.signatures},
                      {"signatures_by_kind", s.signatures_by_kind},
                      {"lower_bound_only", s.lower_bound_only},
                      {"observations", s.observations},
                      {"attempts", s.attempts},
                      {"queries", s.queries},
                      {"plan_templates", s.plan_templates},
                      {"plans", s.plans},
                      {"oldest_ms", s.oldest_ms},
                      {"newest_ms", s.newest_ms}}, 2)
              << "\n";
    return;
  }
  fmt::print("store             {}\n", s.path);
  fmt::print("schema version    {}\n", s.schema_version);
  fmt::print("file size         {} bytes\n", s.file_bytes);
  fmt::print("signatures        {}\n", s.signatures);
  for (const auto& [kind, n] : s.signatures_by_kind) fmt::print("  {:<15} {}\n", kind, n);
  fmt::print("lower bound only  {}\n", s.lower_bound_only);
  fmt::print("observations      {} (kept in history)\n", s.observations);
  fmt::print("attempts          {}\n", s.attempts);
  fmt::print("queries           {}\n", s.queries);
  fmt::print("plans             {} over {} query templates (regression guard)\n", s.plans, s.plan_templates);
  fmt::print("oldest            {}\n", iso_time(s.oldest_ms));
  fmt::print("newest            {}\n", iso_time(s.newest_ms));
}

enum class Verb { List, Show, Summary, Gc, Export, Import, Clear };

int run_stats(Verb verb, const StatsFlags& f) {
  const bool as_json = f.format == "json";
  auto usage = [&](const std::string& msg) {
    fmt::print(stderr, "hindsight stats: {}\n", msg);
    return 2;
  };
  if (f.store.empty() && f.data.empty()) return usage("give --store PATH or --data DIR");
  std::optional<int64_t> older_than;
  if (verb == Verb::Gc && !(older_than = parse_duration_ms(f.older_than)))
    return usage(fmt::format("--older-than: '{}' is not a duration (e.g. 30d, 12h, 90m, 45s, 2w)", f.older_than));
  std::optional<stats::ListOrder> order;
  if (f.sort == "observations") order = stats::ListOrder::Observations;
  if (f.sort == "rows") order = stats::ListOrder::Rows;
  if (f.sort == "recent") order = stats::ListOrder::Recent;
  const std::string path = store_path(f);
  auto fail = [&](const std::string& message) {
    fmt::print(stderr, "{}\n", message);
    if (as_json) std::cout << json_text(json{{"error", {{"code", "STORE_ERROR"}, {"message", message}}}}, 2) << "\n";
    return 1;
  };
  const bool writes = verb == Verb::Gc || verb == Verb::Import || verb == Verb::Clear;
  // Inspection never creates, migrates or changes a store.
  if (!writes && !std::filesystem::exists(path)) return fail(fmt::format("STORE_ERROR: no stats store at {}", path));
  SqliteStatsStore::Options options;
  options.read_only = !writes;
  SqliteStatsStore store(path, options);
  // An unusable store's reason comes with the error below; other warnings (a newer schema...) are printed.
  if (store.usable())
    for (const auto& w : store.take_warnings()) fmt::print(stderr, "{}\n", w);
  try {
    switch (verb) {
      case Verb::List: print_list(store.list(*order, f.limit), as_json); break;
      case Verb::Show: {
        auto details = store.show(f.arg);
        auto plans = store.plans(f.arg);  // a query template's plans (the regression guard)
        if (details.empty() && plans.empty())
          return fail(fmt::format("STORE_ERROR: no signature {} in {}", f.arg, path));
        print_show(details, plans, as_json);
        break;
      }
      case Verb::Summary: print_summary(store.summary(), as_json); break;
      case Verb::Gc: {
        const auto removed = store.gc(*older_than);
        if (as_json) std::cout << json_text(json{{"removed_signatures", removed}}, 2) << "\n";
        else fmt::print("removed {} signatures not observed for {}\n", removed, f.older_than);
        break;
      }
      case Verb::Export: {
        store.export_to(f.arg);
        const auto s = store.summary();
        if (as_json)
          std::cout << json_text(json{{"file", f.arg}, {"signatures", s.signatures}, {"plans", s.plans}}, 2) << "\n";
        else fmt::print("exported {} signatures and {} plans to {}\n", s.signatures, s.plans, f.arg);
        break;
      }
      case Verb::Import: {
        const auto r = store.import_from(f.arg);
        if (as_json)
          std::cout << json_text(json{{"file", f.arg}, {"signatures_added", r.signatures_added},
                            {"signatures_merged", r.signatures_merged}, {"attempts", r.attempts},
                            {"queries", r.queries}, {"plans", r.plans}}, 2)
                    << "\n";
        else
          fmt::print("imported {}: {} signatures added, {} merged, {} attempts, {} queries, {} plans\n", f.arg,
                     r.signatures_added, r.signatures_merged, r.attempts, r.queries, r.plans);
        break;
      }
      case Verb::Clear: {
        store.clear();
        if (as_json) std::cout << json_text(json{{"cleared", true}}, 2) << "\n";
        else fmt::print("cleared {}\n", path);
        break;
      }
    }
  } catch (const StoreError& e) {
    // A malformed signature argument is the user's mistake, not the store's.
    if (verb == Verb::Show && std::string(e.what()).find("is not a signature") != std::string::npos)
      return usage(e.what());
    return fail(e.format());
  } catch (const std::exception& e) {
    return fail(fmt::format("STORE_ERROR: {}: {}", path, e.what()));
  }
  return 0;
}

}  // namespace

std::optional<int64_t> parse_duration_ms(const std::string& s) {
  if (s.size() < 2) return std::nullopt;
  const char unit = s.back();
  const std::string digits = s.substr(0, s.size() - 1);
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const int64_t n = std::stoll(digits);
  switch (unit) {
    case 's': return n * 1000;
    case 'm': return n * 60'000;
    case 'h': return n * 3'600'000;
    case 'd': return n * 86'400'000;
    case 'w': return n * 7 * 86'400'000;
  }
  return std::nullopt;
}


void add_stats_command(CLI::App& app, int& exit_code) {
  auto* stats = app.add_subcommand(
      "stats",
      "Inspect and maintain the persistent stats store: what past queries observed, per signature\n"
      "(docs/stats-store.md). The store is --store PATH, or <DIR>/.hindsight/stats.db with --data DIR.");
  stats->require_subcommand(1);
  auto flags = std::make_shared<StatsFlags>();
  auto common = [&](CLI::App* cmd) {
    auto* store = cmd->add_option("--store", flags->store, "Stats store file");
    cmd->add_option("--data", flags->data, "Data folder: the store is <DIR>/.hindsight/stats.db")->excludes(store);
    cmd->add_option("--format", flags->format, "Output: text (for people) or json (for machines)")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
  };
  struct Sub {
    const char* name;
    Verb verb;
    const char* help;
  };
  for (const auto& s : {Sub{"list", Verb::List, "List signatures with their observation counts and rows"},
                        Sub{"show", Verb::Show,
                            "Show one signature (32 hex digits, or a prefix of at least 4): kind, canonical text,\n"
                            "operator, aggregate figures, input tables, its last observations and their queries;\n"
                            "for a query template (regression_guard.template_signature), its plans: runs, best\n"
                            "and last time, which is the best and which are demoted"},
                        Sub{"summary", Verb::Summary,
                            "Counts by kind, lower-bound-only signatures, file size, schema version, oldest/newest"},
                        Sub{"gc", Verb::Gc, "Remove signatures not observed for a while (and what only they used)"},
                        Sub{"export", Verb::Export, "Write the whole store to FILE (a StatsExport protobuf message)"},
                        Sub{"import", Verb::Import, "Merge a FILE written by `stats export` (all or nothing)"},
                        Sub{"clear", Verb::Clear, "Remove every observation from the store"}}) {
    auto* cmd = stats->add_subcommand(s.name, s.help);
    common(cmd);
    if (s.verb == Verb::List) {
      cmd->add_option("--sort", flags->sort, "observations | rows | recent")
          ->check(CLI::IsMember({"observations", "rows", "recent"}))
          ->capture_default_str();
      cmd->add_option("--limit", flags->limit, "At most N signatures (0 = all)")->capture_default_str();
    }
    if (s.verb == Verb::Show) cmd->add_option("SIG", flags->arg, "Signature (hex)")->required();
    if (s.verb == Verb::Export || s.verb == Verb::Import) cmd->add_option("FILE", flags->arg, "Export file")->required();
    if (s.verb == Verb::Gc)
      cmd->add_option("--older-than", flags->older_than, "Age: 30d, 12h, 90m, 45s, 2w")->capture_default_str();
    const Verb verb = s.verb;
    cmd->callback([flags, verb, &exit_code] { exit_code = run_stats(verb, *flags); });
  }
}

}  // namespace hindsight::cli
