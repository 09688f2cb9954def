#include "planner/session/session.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "planner/common/elapsed.hpp"
#include "planner/common/text.hpp"
#include "planner/optimizer/stats/table_statistics_store.hpp"
#include "planner/session/explain.hpp"
#include "planner/sql/parser.hpp"
#include "stats_store/memory_repository.hpp"

namespace hindsight {

Session::Session(Database& db)
    : db_(db),
      process_(std::make_unique<stats::MemoryStatsRepository>(kProcessScopeCapacity)),
      runner_(std::make_shared<SingleAttemptRunner>()) {}
Session::~Session() = default;

stats::StatsRepository* Session::persistent_stats(std::vector<std::string>& warnings) {
  if (!persistent_opened_) {
    persistent_opened_ = true;
    if (open_persistent_) persistent_ = open_persistent_(warnings);
  }
  return persistent_.get();
}

std::vector<stats::StatsRepository*> Session::scopes(stats::StatsRepository& query, std::vector<std::string>& warnings) {
  using Scope = Settings::StatsScope;
  std::vector<stats::StatsRepository*> out;
  if (settings_.stats_scope == Scope::Off) return out;
  out.push_back(&query);
  if (settings_.stats_scope == Scope::Query) return out;
  out.push_back(process_.get());
  if (settings_.stats_scope == Scope::Process) return out;
  if (auto* p = persistent_stats(warnings)) out.push_back(p);
  return out;
}

StatementResult Session::run_analyze(const sql::AnalyzeStatement& stmt, const std::string& sql) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<const TableDef*> defs;
  if (stmt.table.empty()) {
    for (const TableDef& def : db_.catalog().tables) defs.push_back(&def);
  } else {
    const TableDef* def = db_.catalog().find(stmt.table);
    if (!def) {
      const auto& at = stmt.table_span;
      throw Error(ErrorCode::BIND_ERROR, fmt::format("table '{}' does not exist", printable(stmt.table)),
                  SourcePos{"", at.line, at.col}, caret_excerpt(sql, at.line, at.col));
    }
    defs.push_back(def);
  }

  StatementResult result;
  result.is_analyze_statement = true;
  result.compiled = std::make_unique<CompiledQuery>();
  CompiledQuery& cq = *result.compiled;
  cq.sql = sql;
  const std::vector<std::pair<std::string, DataType>> columns = {
      {"table", DataType::varchar()}, {"rows", DataType::bigint()}, {"columns", DataType::integer()},
      {"seconds", DataType::float64()}};
  Batch batch;
  for (const auto& [name, type] : columns) {
    cq.names.push_back(name);
    cq.outputs.push_back(cq.ctx.add_column({name, type, "", ""}));
    result.executed.types.push_back(type);
    batch.columns.emplace_back(type);
  }
  StatisticsCache& cache = statistics_cache(db_);
  QueryLimits limits(settings_);
  for (const TableDef* def : defs) {
    LoadInfo info;
    TablePtr table = db_.table(def->name, info, &limits);
    const auto started = std::chrono::steady_clock::now();
    auto stats = cache.refresh(*table, &limits);
    limits.check_deadline("analyzing table '" + def->name + "'");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    batch.columns[0].append_string(def->name);
    batch.columns[1].append_int(static_cast<int64_t>(table->row_count));
    batch.columns[2].append_int(stats ? static_cast<int64_t>(stats->columns.size()) : 0);  // 0: not analyzable
    batch.columns[3].append_double(std::round(seconds * 1000.0) / 1000.0);
    ++batch.rows;
  }
  if (batch.rows > 0) result.executed.batches.push_back(std::move(batch));
  result.executed.elapsed_ms = ms_since(t0);
  result.attempts.push_back(Attempt::only(std::nullopt, result.executed.elapsed_ms));
  return result;
}

StatementResult Session::run_script(const std::string& sql, bool explain, bool analyze, bool reoptimize) {
  StatementResult result;
  std::vector<sql::StatementPtr> stmts;
  // The library's exception boundary: whatever escapes a stage (an Error, std::bad_alloc, a std exception from an
  // invariant that was not an HS_ASSERT) ends the script as a typed error result, never as std::terminate.
  try {
    stmts = sql::parse_sql(sql);
    if (stmts.empty()) throw Error(ErrorCode::PARSE_ERROR, "no statement to run", SourcePos{"", 1, 1});
  } catch (...) {
    Error e = with_excerpt(current_exception_as_error(), sql);
    result.error = e;
    result.attempts.push_back(Attempt::only(e));
    return result;
  }
  for (auto& stmt : stmts) {
    try {
      if (stmt->is<sql::SetStatement>()) {
        auto& s = stmt->as<sql::SetStatement>();
        try {
          apply_setting(settings_, s.name, s.value);
        } catch (const Error& e) {
          throw Error(e.code(), e.message(), SourcePos{"", s.span.line, s.span.col}, caret_excerpt(sql, s.span.line, s.span.col));
        }
        continue;
      }
      // The result is the last statement's; the stats scopes' warnings are the whole script's.
      std::vector<std::string> warnings = std::move(result.warnings);
      result = StatementResult{};
      result.warnings = std::move(warnings);
      if (stmt->is<sql::AnalyzeStatement>()) {
        warnings = std::move(result.warnings);
        result = run_analyze(stmt->as<sql::AnalyzeStatement>(), sql);
        result.warnings = std::move(warnings);
        continue;
      }
      const sql::Query* q;
      if (stmt->is<sql::ExplainStatement>()) {
        result.is_explain = true;
        result.reoptimization = stmt->as<sql::ExplainStatement>().reoptimization || reoptimize;
        result.analyze = stmt->as<sql::ExplainStatement>().analyze || analyze || result.reoptimization;
        q = stmt->as<sql::ExplainStatement>().query.get();
      } else {
        result.is_explain = explain;
        result.reoptimization = explain && reoptimize;
        result.analyze = analyze || result.reoptimization;
        q = stmt->as<sql::SelectStatement>().query.get();
      }
      // The stats scopes this statement reads and feeds; the query scope holds its attempt chain.
      stats::MemoryStatsRepository query_scope;
      StatementInput in{db_, *q, sql, settings_, true, true, {}, nullptr};
      in.execute = !(result.is_explain && !result.analyze);
      // Every query statement is a SELECT or an EXPLAIN: none has side effects, so each may be run again.
      in.side_effect_free = true;
      in.scopes = scopes(query_scope, result.warnings);
      in.warnings = &result.warnings;
      in.reoptimize = result.reoptimization;  // run, then plan again with what the run observed
      runner_->run(in, result);
      if (result.error) return result;
    } catch (...) {
      Error e = with_excerpt(current_exception_as_error(), sql);
      result.error = e;
      result.attempts.push_back(Attempt::only(e, 0, result.compiled ? plan_hash(*result.compiled) : ""));
      return result;
    }
  }
  return result;
}

}  // namespace hindsight
