#include "planner/logical/param_writer.hpp"

#include "planner/logical/logical_operator.hpp"

namespace hindsight {

namespace {
std::string join_text(const std::vector<ExprPtr>& es, const PlanContext& ctx, const char* sep) {
  std::string out;
  for (size_t i = 0; i < es.size(); ++i) out += (i ? sep : "") + expr_text(*es[i], ctx);
  return out;
}
}  // namespace

void ExplainParamWriter::text(std::string_view key, std::string_view value) { add(key, std::string(value)); }
void ExplainParamWriter::number(std::string_view key, int64_t value) {
  add(key, key == "limit" && value < 0 ? "all" : std::to_string(value));
}
void ExplainParamWriter::conjuncts(std::string_view key, const std::vector<ExprPtr>& conj) {
  add(key, conj.empty() ? "true" : join_text(conj, ctx_, " AND "));
}
void ExplainParamWriter::exprs(std::string_view key, const std::vector<ExprPtr>& list) {
  add(key, join_text(list, ctx_, ", "));
}
void ExplainParamWriter::columns(std::string_view key, const std::vector<ColumnId>& ids, bool) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + ctx_.display_name(ids[i]);
  add(key, out);
}
void ExplainParamWriter::sort_keys(std::string_view key, const std::vector<SortKeyRef>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i)
    out += (i ? ", " : "") + ctx_.display_name(keys[i].column) + (keys[i].ascending ? " ASC" : " DESC") +
           (keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  add(key, out);
}
void ExplainParamWriter::aggregates(std::string_view key, const std::vector<AggregateCall>& aggs) {
  std::string out;
  for (size_t i = 0; i < aggs.size(); ++i)
    out += (i ? ", " : "") + std::string(agg_kind_name(aggs[i].kind)) + "(" + (aggs[i].distinct ? "DISTINCT " : "") +
           (aggs[i].arg == kInvalidColumn ? "*" : ctx_.display_name(aggs[i].arg)) + ")";
  add(key, out);
}
void ExplainParamWriter::key_pairs(std::string_view key, const std::vector<ColumnId>& left,
                                   const std::vector<ColumnId>& right) {
  std::string out;
  for (size_t i = 0; i < left.size(); ++i)
    out += (i ? ", " : "") + ctx_.display_name(left[i]) + " = " + ctx_.display_name(right[i]);
  add(key, out);
}
void ExplainParamWriter::display(std::string_view key, std::string_view value) { add(key, std::string(value)); }

}  // namespace hindsight
