#include "planner/session/session.hpp"

#include "planner/session/explain.hpp"
#include "planner/sql/parser.hpp"

namespace hindsight {

StatementResult Session::run_script(const std::string& sql, bool explain, bool analyze) {
  StatementResult result;
  std::vector<sql::StatementPtr> stmts;
  try {
    stmts = sql::parse_sql(sql);
    if (stmts.empty()) throw Error(ErrorCode::PARSE_ERROR, "no statement to run", SourcePos{"", 1, 1});
  } catch (const Error& e) {
    result.error = e;
    result.attempts.push_back({1, e, 0, "", ""});
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
      result = StatementResult{};
      const sql::Query* q;
      if (stmt->is<sql::ExplainStatement>()) {
        result.is_explain = true;
        result.analyze = stmt->as<sql::ExplainStatement>().analyze || analyze;
        q = stmt->as<sql::ExplainStatement>().query.get();
      } else {
        result.is_explain = explain;
        result.analyze = analyze;
        q = stmt->as<sql::SelectStatement>().query.get();
      }
      // Positions in errors refer to the whole script text.
      result.compiled = compile_query(db_, *q, sql, settings_);
      if (result.is_explain && !result.analyze) continue;
      result.executed = execute_query(*result.compiled, settings_);
      Attempt a;
      a.number = 1;
      a.error = result.executed.error;
      a.elapsed_ms = result.executed.elapsed_ms;
      a.plan_hash = plan_hash(*result.compiled);
      result.attempts.push_back(a);
      if (result.executed.error) {
        result.error = result.executed.error;
        return result;
      }
    } catch (const Error& e) {
      result.error = e;
      result.attempts.push_back({1, e, 0, result.compiled ? plan_hash(*result.compiled) : "", ""});
      return result;
    }
  }
  return result;
}

}  // namespace hindsight
