#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "planner/expr/expr.hpp"
#include "planner/logical/plan_context.hpp"

namespace hindsight {

struct SortKeyRef;
struct AggregateCall;

/// Where an operator writes its parameters, once: EXPLAIN renders them as text, the signature
/// encoder as canonical bytes (column references by lineage, constants exact or as
/// placeholders). Everything but display() is semantic and part of the operator's signature.
class ParamWriter {
 public:
  virtual ~ParamWriter() = default;
  virtual void text(std::string_view key, std::string_view value) = 0;
  virtual void number(std::string_view key, int64_t value) = 0;
  /// A conjunction: order and duplicates do not matter.
  virtual void conjuncts(std::string_view key, const std::vector<ExprPtr>& conj) = 0;
  /// An ordered list of expressions.
  virtual void exprs(std::string_view key, const std::vector<ExprPtr>& list) = 0;
  /// Columns, as an ordered list or as a set.
  virtual void columns(std::string_view key, const std::vector<ColumnId>& ids, bool ordered) = 0;
  virtual void sort_keys(std::string_view key, const std::vector<SortKeyRef>& keys) = 0;
  virtual void aggregates(std::string_view key, const std::vector<AggregateCall>& aggs) = 0;
  /// Equi-join keys: left[i] = right[i], as a set of pairs.
  virtual void key_pairs(std::string_view key, const std::vector<ColumnId>& left, const std::vector<ColumnId>& right) = 0;
  /// For people only (never part of a signature): e.g. the columns a scan happens to read.
  virtual void display(std::string_view key, std::string_view value) = 0;
  /// False when display() values are thrown away (the signature encoder): writers skip building them.
  virtual bool wants_display() const { return true; }
};

struct OperatorParam;

/// Renders parameters as readable text for EXPLAIN.
class ExplainParamWriter : public ParamWriter {
 public:
  explicit ExplainParamWriter(const PlanContext& ctx) : ctx_(ctx) {}
  std::vector<std::pair<std::string, std::string>> params;

  void text(std::string_view key, std::string_view value) override;
  void number(std::string_view key, int64_t value) override;
  void conjuncts(std::string_view key, const std::vector<ExprPtr>& conj) override;
  void exprs(std::string_view key, const std::vector<ExprPtr>& list) override;
  void columns(std::string_view key, const std::vector<ColumnId>& ids, bool ordered) override;
  void sort_keys(std::string_view key, const std::vector<SortKeyRef>& keys) override;
  void aggregates(std::string_view key, const std::vector<AggregateCall>& aggs) override;
  void key_pairs(std::string_view key, const std::vector<ColumnId>& left, const std::vector<ColumnId>& right) override;
  void display(std::string_view key, std::string_view value) override;

 private:
  void add(std::string_view key, std::string value) { params.emplace_back(std::string(key), std::move(value)); }
  const PlanContext& ctx_;
};

}  // namespace hindsight
