#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "planner/catalog/table_def.hpp"
#include "planner/common/error.hpp"
#include "planner/expr/expr.hpp"
#include "planner/logical/param_writer.hpp"
#include "planner/logical/plan_context.hpp"
#include "stats_store/stats_source.hpp"

namespace hindsight {

enum class LogicalKind : uint8_t { Get, Filter, Project, Join, Aggregate, Sort, Limit, UnionAll, Values, CteRef };
const char* logical_kind_name(LogicalKind k);

/// Join semantics of the logical plan. Output: left columns then right columns, except Semi/Anti
/// (left columns only). NullAwareAnti is NOT IN: a NULL on either side makes the comparison unknown.
enum class LogicalJoinType : uint8_t { Inner, Left, Right, Full, Semi, Anti, NullAwareAnti };
const char* join_type_name(LogicalJoinType t);

/// How a join's inputs meet on the workers when the join order chose it (docs/join-order.md, "Distributions"):
/// Chosen = the physical planner chooses per join. Any other value also fixes the sides: the left input is the
/// probe side, the right input the build side.
enum class JoinWay : uint8_t { Chosen, Single, Gather, Reference, Colocated, Broadcast, ToProbe, ToBuild, Both };

/// One named parameter of an operator, written once and read by EXPLAIN and by the signature
/// encoder (one source of truth).
struct OperatorParam {
  std::string key;
  std::string value;
};

class LogicalOperator;
using LogicalPtr = std::unique_ptr<LogicalOperator>;

/// A node of the logical plan. Children in unique_ptr; outputs named by ColumnId.
class LogicalOperator {
 public:
  LogicalOperator(LogicalKind kind, NodeId id) : kind(kind), id(id) {}
  virtual ~LogicalOperator() = default;

  LogicalKind kind;
  NodeId id;
  std::vector<LogicalPtr> children;
  /// The columns this operator produces, in order.
  std::vector<ColumnId> outputs;
  double estimated_rows = -1;  ///< filled by the estimator
  /// Where estimated_rows came from: the model, or an observation found by signature.
  stats::EstimateSource estimate_source = stats::EstimateSource::Model;
  /// Bytes per output row, when an observation found by signature knew them (else -1): the cost
  /// model's row width for this node's output (a hash join's build side above all).
  double observed_row_bytes = -1;

  /// Writes the operator's semantic parameters (no ids, no aliases) in a fixed order: the one
  /// list EXPLAIN and the signature encoder both read.
  virtual void write_params(ParamWriter& w) const = 0;
  /// The parameters as EXPLAIN text.
  std::vector<OperatorParam> params(const PlanContext& ctx) const;

  template <class T>
  T& as() {
    check_kind(T::kKind);
    return static_cast<T&>(*this);
  }
  template <class T>
  const T& as() const {
    check_kind(T::kKind);
    return static_cast<const T&>(*this);
  }

 private:
  void check_kind(LogicalKind expected) const;
};

/// Reads a base table. `columns` are table column indices, one per output; pushed-down filters
/// are conjuncts over the outputs.
class LogicalGet : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::Get;
  LogicalGet(NodeId id) : LogicalOperator(kKind, id) {}
  TableDef table;
  std::string alias;
  std::vector<int> columns;
  std::vector<ExprPtr> filters;
  void write_params(ParamWriter& w) const override;
};

class LogicalFilter : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::Filter;
  LogicalFilter(NodeId id) : LogicalOperator(kKind, id) {}
  std::vector<ExprPtr> conjuncts;
  void write_params(ParamWriter& w) const override;
};

/// Computes exprs[i] into outputs[i].
class LogicalProject : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::Project;
  LogicalProject(NodeId id) : LogicalOperator(kKind, id) {}
  std::vector<ExprPtr> exprs;
  void write_params(ParamWriter& w) const override;
};

/// children[0] = left, children[1] = right. `conditions` are conjuncts (empty = cross product).
class LogicalJoin : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::Join;
  LogicalJoin(NodeId id) : LogicalOperator(kKind, id) {}
  LogicalJoinType type = LogicalJoinType::Inner;
  std::vector<ExprPtr> conditions;
  /// Set by the cost-based join order at workers > 1 (not a semantic parameter: not written, not signed).
  JoinWay way = JoinWay::Chosen;
  void write_params(ParamWriter& w) const override;
};

struct AggregateCall {
  AggKind kind;
  ColumnId arg = kInvalidColumn;  ///< kInvalidColumn for COUNT(*)
  bool distinct = false;
  DataType type;                  ///< result type
};

/// Groups by input columns `groups` (passed through with the same ids) and computes `aggs`.
/// outputs = groups ++ one id per aggregate.
class LogicalAggregate : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::Aggregate;
  LogicalAggregate(NodeId id) : LogicalOperator(kKind, id) {}
  std::vector<ColumnId> groups;
  std::vector<AggregateCall> aggs;
  void write_params(ParamWriter& w) const override;
};

struct SortKeyRef {
  ColumnId column;
  bool ascending = true;
  bool nulls_first = false;
};

class LogicalSort : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::Sort;
  LogicalSort(NodeId id) : LogicalOperator(kKind, id) {}
  std::vector<SortKeyRef> keys;
  void write_params(ParamWriter& w) const override;
};

class LogicalLimit : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::Limit;
  LogicalLimit(NodeId id) : LogicalOperator(kKind, id) {}
  int64_t limit = -1;  ///< -1 = no limit (OFFSET only)
  int64_t offset = 0;
  void write_params(ParamWriter& w) const override;
};

/// UNION ALL: child i's outputs map positionally onto this operator's outputs.
class LogicalUnionAll : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::UnionAll;
  LogicalUnionAll(NodeId id) : LogicalOperator(kKind, id) {}
  void write_params(ParamWriter& w) const override;
};

/// Constant rows (SELECT without FROM produces one row of no columns).
class LogicalValues : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::Values;
  LogicalValues(NodeId id) : LogicalOperator(kKind, id) {}
  std::vector<std::vector<Value>> rows;
  void write_params(ParamWriter& w) const override;
};

/// Reads a materialized CTE (SET cte_materialization = always): the CTE's plan runs once and every
/// reference reads its rows. outputs[i] is the producer's column producer_columns[i].
class LogicalCteRef : public LogicalOperator {
 public:
  static constexpr LogicalKind kKind = LogicalKind::CteRef;
  LogicalCteRef(NodeId id) : LogicalOperator(kKind, id) {}
  int cte_index = -1;
  std::string cte_name;
  std::vector<ColumnId> producer_columns;
  void write_params(ParamWriter& w) const override;
};

/// Splits AND trees into conjuncts (moves).
void split_conjuncts(ExprPtr e, std::vector<ExprPtr>& out);
/// AND of conjuncts (clones); nullptr when empty.
ExprPtr make_conjunction(const std::vector<ExprPtr>& conjuncts);
/// Expression text with column names from the context.
std::string expr_text(const Expr& e, const PlanContext& ctx);

}  // namespace hindsight
