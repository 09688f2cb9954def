#include "reexec/workload/capture.hpp"

#include <fmt/format.h>
#include <google/protobuf/util/json_util.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "planner/common/error.hpp"
#include "planner/common/text.hpp"
#include "planner/session/explain.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/sql/parser.hpp"
#include "reexec/workload/result_digest.hpp"
#include "reexec/workload/workload_file.hpp"
#include "signatures/signature.hpp"
#include "stats_store/sqlite_store.hpp"
#include "stats_store/store_error.hpp"

namespace hindsight::workload {

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void set_error(QueryError* out, const hindsight::Error& e) {
  out->set_code(error_code_name(e.code()));
  out->set_message(e.message());
}

/// The physical NODE of explain's JSON, read into PlanNode (the message mirrors it; a null group becomes -1).
void fill_plan(nlohmann::json node, PlanNode* out) {
  std::function<void(nlohmann::json&)> fix = [&](nlohmann::json& n) {
    if (n["group"].is_null()) n["group"] = -1;
    if (n.contains("actual_rows") && n["actual_rows"].is_null()) n.erase("actual_rows");
    if (n.contains("cost") && n["cost"].is_null()) n.erase("cost");
    for (auto& [k, v] : n["details"].items())
      if (!v.is_string()) v = v.dump();
    for (auto& c : n["children"]) fix(c);
  };
  fix(node);
  google::protobuf::util::JsonParseOptions opts;
  opts.ignore_unknown_fields = true;
  auto status = google::protobuf::util::JsonStringToMessage(node.dump(), out, opts);
  if (!status.ok()) throw hindsight::Error(ErrorCode::INTERNAL, "the captured plan does not fit the workload format: " + status.ToString());
}

}  // namespace

std::vector<NamedStatement> named_statements(const std::string& text) {
  auto stmts = sql::parse_sql(text);  // throws PARSE_ERROR with line:col
  const auto lines = lines_of(text);
  std::vector<NamedStatement> out;
  std::map<std::string, int> seen;  // name -> line
  int previous_end = 0;
  int queries = 0;
  for (auto& s : stmts) {
    NamedStatement n;
    n.sql = s->text;
    n.line = s->span.line;
    if (s->is<sql::ExplainStatement>() || s->is<sql::AnalyzeStatement>())
      throw hindsight::Error(ErrorCode::NOT_SUPPORTED,
                             fmt::format("line {}: a workload holds queries and SET statements; {} is not captured",
                                         n.line, s->is<sql::ExplainStatement>() ? "EXPLAIN" : "ANALYZE"));
    n.is_query = s->is<sql::SelectStatement>();
    if (s->is<sql::SetStatement>()) {
      n.set_name = s->as<sql::SetStatement>().name;
      n.set_value = s->as<sql::SetStatement>().value;
    }
    if (n.is_query) {
      n.ordered = !s->as<sql::SelectStatement>().query->order_by.empty();
      ++queries;
      // The last `-- name:` line between the previous statement and this one.
      for (int l = n.line - 1; l > previous_end && l >= 1; --l) {
        const std::string t = trim(lines[static_cast<size_t>(l - 1)]);
        if (t.rfind("-- name:", 0) == 0) {
          n.name = trim(t.substr(8));
          break;
        }
      }
      if (n.name.empty()) n.name = fmt::format("q{}", queries);
      if (auto it = seen.find(n.name); it != seen.end())
        throw hindsight::Error(ErrorCode::BIND_ERROR, fmt::format("line {}: a query named '{}' is already at line {}",
                                                                  n.line, printable(n.name), it->second));
      seen[n.name] = n.line;
    }
    previous_end = s->span.end_line;
    out.push_back(std::move(n));
  }
  return out;
}

Workload capture_workload(const CaptureInput& in) {
  Workload w;
  w.set_format_version(kWorkloadFormatVersion);
  w.set_created_at(utc_now());
  w.set_signature_version(sig::SIGNATURE_VERSION);
  w.set_queries_file(in.queries_file);
  for (auto& [k, v] : in.sets) {
    auto* s = w.add_settings();
    s->set_name(k);
    s->set_value(v);
  }
  const auto statements = named_statements(in.sql_text);
  size_t total = 0;
  for (auto& s : statements) total += s.is_query ? 1 : 0;
  if (total == 0)
    throw hindsight::Error(ErrorCode::DATA_ERROR, fmt::format("'{}' holds no query to capture", printable(in.queries_file)));
  std::vector<std::pair<std::string, std::string>> file_sets;  // SET statements so far, in order
  size_t index = 0;
  for (const NamedStatement& st : statements) {
    if (!st.is_query) {
      in.session->run_script(st.sql);  // throws TYPE_ERROR/BIND_ERROR for a bad setting: the file is wrong
      file_sets.emplace_back(st.set_name, st.set_value);
      continue;
    }
    if (in.progress) in.progress(index, total, st.name);
    ++index;
    CapturedQuery* q = w.add_queries();
    q->set_name(st.name);
    q->set_sql(st.sql);
    q->set_line(static_cast<uint32_t>(st.line));
    for (auto& [k, v] : file_sets) {
      auto* s = q->add_settings();
      s->set_name(k);
      s->set_value(v);
    }
    StatementResult r;
    try {
      r = in.session->run_script(st.sql);
    } catch (...) {
      r.error = current_exception_as_error();
    }
    q->set_ok(!r.error);
    if (r.error) set_error(q->mutable_error(), *r.error);
    double plan_ms = 0, elapsed_ms = 0;
    for (const hindsight::Attempt& a : r.attempts) {
      auto* pa = q->add_attempts();
      pa->set_number(static_cast<uint32_t>(a.number));
      pa->set_ok(!a.error);
      if (a.error) set_error(pa->mutable_error(), *a.error);
      pa->set_plan_ms(a.plan_ms);
      pa->set_elapsed_ms(a.elapsed_ms);
      pa->set_peak_memory(a.peak_memory);
      pa->set_spilled_bytes(a.spilled_bytes);
      pa->set_plan_hash(a.plan_hash);
      pa->set_reexec_reason(a.reexec_reason);
      pa->set_spill_in_place(a.spill_in_place);
      pa->set_spilled_in_place(a.spilled_in_place);
      plan_ms += a.plan_ms;
      elapsed_ms += a.elapsed_ms;
    }
    q->set_plan_ms(plan_ms);
    q->set_elapsed_ms(elapsed_ms);
    for (auto& warning : r.warnings) q->add_warnings(warning);
    if (!r.error) {
      const Digest d = result_digest(r.executed.batches, st.ordered);
      q->mutable_result()->set_row_count(d.rows);
      q->mutable_result()->set_digest(d.hex);
      q->mutable_result()->set_ordered(d.ordered);
    }
    if (r.compiled) {
      const ExecutedQuery* run = r.executed.exec ? &r.executed : nullptr;
      auto mapping = map_query(*r.compiled, run, in.session->settings());
      fill_plan(explain_json(*r.compiled, run, mapping.get())["physical"], q->mutable_plan());
      q->set_plan_hash(plan_hash(*r.compiled));
      q->set_template_signature(r.compiled->signer->sign(*r.compiled->logical).templ.hex());
      if (run) {
        q->set_worst_q_error(worst_q_error(*r.compiled, *run).q_error);
        q->set_work(plan_work(*r.compiled, *run).work);
      }
    }
  }
  if (in.progress) in.progress(total, total, "");
  for (const TableDef& def : in.db->catalog().tables) {
    auto* t = w.add_tables();
    t->set_name(def.name);
    for (auto& c : def.columns) {
      auto* col = t->add_columns();
      col->set_name(c.name);
      col->set_type(c.type.to_string());
    }
    try {
      TablePtr table = in.db->table(def.name);
      t->set_data_version(fmt::format("{:016x}", table->data_version));
      t->set_row_count(table->row_count);
    } catch (...) {
      // A table no query could open: recorded without a version (a replay then warns about it).
    }
  }
  return w;
}

std::string workload_sql_from_texts(const std::vector<std::string>& texts, std::vector<std::string>* skipped) {
  struct Kept {
    std::string name, sql;
  };
  std::vector<Kept> kept;
  std::set<std::string> names, sqls;
  const auto skip = [&](size_t i, const std::string& why) {
    if (skipped) skipped->push_back(fmt::format("text {}: {}", i + 1, why));
  };
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<NamedStatement> st;
    try {
      st = named_statements(texts[i]);
    } catch (...) {
      skip(i, current_exception_as_error().format());
      continue;
    }
    // A script's statements are recorded under the script's text: each of its queries is kept.
    size_t query_index = 0;
    for (const NamedStatement& n : st) {
      if (!n.is_query) {
        skip(i, fmt::format("line {}: not a query (a SET applies to the queries after it in its script only)", n.line));
        continue;
      }
      ++query_index;
      if (!sqls.insert(n.sql).second) {
        skip(i, fmt::format("line {}: the same query as an earlier one", n.line));
        continue;
      }
      // named_statements names an unnamed query q1, q2, ... (by its place in the text): only a `-- name:` line
      // gives a name of its own.
      const bool named = n.name != fmt::format("q{}", query_index);
      std::string name = named && !names.count(n.name) ? n.name : "";
      if (!name.empty()) names.insert(name);
      kept.push_back({name, n.sql});
    }
  }
  std::string sql;
  size_t next = 1;
  for (Kept& k : kept) {
    if (k.name.empty()) {
      while (names.count(fmt::format("s{}", next))) ++next;
      k.name = fmt::format("s{}", next++);
      names.insert(k.name);
    }
    sql += fmt::format("-- name: {}\n{};\n\n", k.name, k.sql);
  }
  return sql;
}

std::vector<std::string> store_query_texts(const std::string& path, int64_t since_ms) {
  const std::string shown = printable(path);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw hindsight::Error(ErrorCode::IO_ERROR, fmt::format("no stats store at '{}'", shown));
  stats::SqliteStatsStore::Options options;
  options.read_only = true;  // never creates, migrates or changes the store
  stats::SqliteStatsStore store(path, options);
  try {
    std::vector<std::string> texts;
    for (auto& q : store.list_queries(since_ms)) texts.push_back(q.text);
    return texts;
  } catch (const std::exception& e) {
    throw hindsight::Error(ErrorCode::DATA_ERROR,
                           fmt::format("'{}' is not a Hindsight stats store (or cannot be read as one): {}", shown,
                                       e.what()));
  }
}

std::string workload_text(const Workload& w) {
  std::string out = fmt::format("workload captured {} from {} ({} queries, {} tables, signature version {})\n",
                                w.created_at(), w.queries_file().empty() ? "?" : w.queries_file(), w.queries_size(),
                                w.tables_size(), w.signature_version());
  for (auto& s : w.settings()) out += fmt::format("  set {} = {}\n", s.name(), s.value());
  for (auto& t : w.tables())
    out += fmt::format("  table {}: {} rows, data version {}\n", t.name(), t.row_count(),
                       t.data_version().empty() ? "?" : t.data_version());
  out += fmt::format("{:<28} {:<7} {:>9} {:>8} {:>10} {:>10} {:>12}  {}\n", "query", "status", "rows", "attempts",
                     "plan ms", "exec ms", "worst q-err", "plan / error");
  for (auto& q : w.queries()) {
    out += fmt::format("{:<28} {:<7} {:>9} {:>8} {:>10.1f} {:>10.1f} {:>12.1f}  {}\n", q.name(), q.ok() ? "ok" : "failed",
                       q.ok() ? std::to_string(q.result().row_count()) : "-", q.attempts_size(), q.plan_ms(),
                       q.elapsed_ms(), q.worst_q_error(),
                       q.ok() ? q.plan_hash() : q.error().code() + ": " + q.error().message().substr(0, 80));
  }
  return out;
}

}  // namespace hindsight::workload
