#pragma once
#include <memory>
#include <string>
#include <vector>

#include "planner/exec/aggregate_spec.hpp"
#include "planner/exec/exchange.hpp"
#include "planner/exec/join_type.hpp"
#include "planner/exec/sort_key.hpp"
#include "planner/logical/logical_operator.hpp"
#include "planner/physical/distribution.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

enum class PhysicalOpKind : uint8_t {
  TableScan, Filter, Project, HashJoin, NestedLoopJoin, HashAggregate, Sort, TopN, Limit, UnionAll, Values, Exchange,
  CteScan
};
const char* physical_op_name(PhysicalOpKind k);

/// How a join's inputs meet on the workers.
enum class JoinDistribution : uint8_t {
  Colocated,    ///< both sides already hashed alike on the join keys: no exchange
  Reference,    ///< the build side is a replicated (reference) stream: no exchange
  Broadcast,    ///< the build side is copied to every worker (memory x workers)
  Partitioned,  ///< both sides repartitioned on the join keys
  Single,       ///< both sides on one worker
};
const char* join_distribution_name(JoinDistribution d);

/// What an operator costs (planner/physical/physical_cost.hpp has the formulas).
struct PlanCost {
  double cpu = 0;            ///< row-touches, summed over workers
  double network_bytes = 0;  ///< bytes moved between workers
  double memory_bytes = 0;   ///< bytes held at peak, summed over workers
  double total = 0;          ///< the weighted sum the optimizer compares
};

class PhysicalOperator;
using PhysicalPtr = std::unique_ptr<PhysicalOperator>;

/// A node of the physical plan. Outputs are ColumnIds (as in the logical plan); the exec builder
/// resolves them to positions. `logical_id` is the logical node it implements (0 for exchanges).
class PhysicalOperator {
 public:
  PhysicalOperator(PhysicalOpKind kind, NodeId id) : kind(kind), id(id) {}
  virtual ~PhysicalOperator() = default;
  PhysicalOpKind kind;
  NodeId id;
  NodeId logical_id = 0;
  std::vector<PhysicalPtr> children;
  std::vector<ColumnId> outputs;
  Distribution distribution;
  double estimated_rows = -1;
  stats::EstimateSource estimate_source = stats::EstimateSource::Model;  ///< copied from the logical node
  double observed_row_bytes = -1;  ///< copied from the logical node (see LogicalOperator)
  PlanCost own_cost;          ///< this operator alone (annotate_costs)
  double subtree_cost = -1;   ///< own_cost.total plus the children's subtree costs

  /// Semantic parameters, written once for EXPLAIN and signatures (see ParamWriter).
  virtual void write_params(ParamWriter& w) const = 0;
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
  void check_kind(PhysicalOpKind k) const;
};

#define HS_PHYSICAL_NODE(Name, Kind)                                          \
  static constexpr PhysicalOpKind kKind = PhysicalOpKind::Kind;                   \
  explicit Name(NodeId id) : PhysicalOperator(kKind, id) {}                   \
  void write_params(ParamWriter& w) const override;

class ScanSource;  // planner/storage/connector/scan_source.hpp

class PhysicalTableScan : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalTableScan, TableScan)
  TablePtr table;
  std::vector<int> columns;      ///< table column indices, one per output
  std::vector<ExprPtr> filters;  ///< pushed-down conjuncts over the outputs (those the connector accepted)
  /// What the table's connector built from the accepted pushdowns (limit, EXPLAIN text, per-worker operators).
  /// Null only for scans built by hand (tests): then a columnar TableScanOp over `filters`.
  std::shared_ptr<const ScanSource> source;
};

class PhysicalFilter : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalFilter, Filter)
  std::vector<ExprPtr> conjuncts;
};

class PhysicalProject : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalProject, Project)
  std::vector<ExprPtr> exprs;
};

/// children[0] = probe, children[1] = build. Output: probe ++ build (probe only for semi/anti).
class PhysicalHashJoin : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalHashJoin, HashJoin)
  JoinType type = JoinType::Inner;
  JoinDistribution join_distribution = JoinDistribution::Partitioned;
  std::vector<ColumnId> probe_keys, build_keys;
  std::vector<ExprPtr> residual;
};

class PhysicalNestedLoopJoin : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalNestedLoopJoin, NestedLoopJoin)
  JoinType type = JoinType::Inner;
  std::vector<ExprPtr> condition;
};

/// Output: groups ++ aggregates (Final/Single) or groups ++ partial states (Partial, see
/// HashAggregateOp for the state layout).
class PhysicalHashAggregate : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalHashAggregate, HashAggregate)
  AggregateMode mode = AggregateMode::Single;
  std::vector<ColumnId> groups;
  std::vector<AggregateCall> aggs;
};

using PhysicalSortKey = SortKeyRef;

class PhysicalSort : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalSort, Sort)
  std::vector<PhysicalSortKey> keys;
};

class PhysicalTopN : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalTopN, TopN)
  std::vector<PhysicalSortKey> keys;
  int64_t limit = 0;
  int64_t offset = 0;
};

class PhysicalLimit : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalLimit, Limit)
  int64_t limit = -1;
  int64_t offset = 0;
};

class PhysicalUnionAll : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalUnionAll, UnionAll)
};

class PhysicalValues : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalValues, Values)
  std::vector<std::vector<Value>> rows;
};

/// Moves rows between workers. Its output distribution says where they end up.
class PhysicalExchange : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalExchange, Exchange)
  ExchangeKind exchange = ExchangeKind::Gather;
  std::vector<ColumnId> keys;  ///< Repartition
  /// Repartition: bucket count of the hash (0: one per worker). Equal to a table's bucket count,
  /// rows land on the worker that reads the matching bucket of that table (one-sided repartition).
  int buckets = 0;
};

/// Reads materialized CTE `cte_index`; outputs[i] is the producer's column producer_columns[i].
class PhysicalCteScan : public PhysicalOperator {
 public:
  HS_PHYSICAL_NODE(PhysicalCteScan, CteScan)
  int cte_index = -1;
  std::string cte_name;
  std::vector<ColumnId> producer_columns;
};

#undef HS_PHYSICAL_NODE

}  // namespace hindsight
