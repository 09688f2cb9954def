#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include "planner/logical/logical_operator.hpp"
#include "planner/optimizer/join_order/cardinality.hpp"
#include "planner/signing/plan_signer.hpp"
#include "stats_store/stats_source.hpp"

namespace hindsight {

struct ColumnStatistics;

/// The classical cardinality model ("model" estimates). With column statistics (set_column_stats):
/// comparisons, IN lists, LIKE prefixes and IS NULL on a column against constants use the
/// column's histogram, most common values and null count; equi-joins use containment
/// (|R ⋈ S| = |R|·|S| / max(ndv)), composite keys between two scans with the distinct counts of
/// the key column sets (set_key_distinct), other composite keys by backoff; GROUP BY yields the
/// product of the keys' distinct counts capped by the input. Conjuncts are independent. Without
/// statistics for a column it falls back to fixed selectivities (equality 0.1, range 0.3, LIKE
/// 0.25, IN 0.1 per item, other 0.5), joins by the foreign-key assumption, aggregates a tenth of
/// their input. Sets estimated_rows on every node.
///
/// Observations first: with a StatsSource (set_stats_source) every node's signatures are looked
/// up (exact, then join-set, then template) before the model is used; an answer replaces the
/// model's rows and is recorded in estimate_source, so parents build on the observed figure. A
/// lower bound (an observation cut short) only ever raises the model's estimate.
class CardinalityModel {
 public:
  explicit CardinalityModel(std::function<double(const TableDef&)> table_rows);
  ~CardinalityModel();
  /// Estimates `op` and everything below it (sets estimated_rows and estimate_source).
  double estimate(LogicalOperator& op);
  double selectivity(const Expr& conjunct) const;
  /// Share of rows that pass every one of `conjuncts`: the product of their selectivities, except that a column's
  /// one lower and one upper bound against constants (`d >= '1995-09-01' AND d < '1995-10-01'`, BETWEEN) are one
  /// interval, estimated as such: as independent predicates two half-open ranges would keep about a quarter of a
  /// table whatever the interval's width.
  double conjunction_selectivity(const std::vector<const Expr*>& conjuncts) const;
  /// Fraction of the cross product of two inputs a join condition keeps: containment from
  /// statistics for column = column, else the foreign-key guess 1 / max(rows), else 0.3.
  double join_condition_selectivity(const Expr& condition, double left_rows, double right_rows) const;
  /// Share of its left rows a semi, anti or null-aware anti join outputs, by the model (`left_cols`: the columns
  /// its left side offers, `right`: its right input, estimated already). The one definition behind the estimate
  /// of such a join node and the join enumerator's semi edges (which hold the right input apart from the join
  /// node: hence `right`, not the node's child).
  double semi_join_keep(const LogicalJoin& j, const std::set<ColumnId>& left_cols, const LogicalOperator& right) const;
  /// Rows a LEFT join outputs per left row, by the model: its inner join's rows per left row, at least 1 (every
  /// left row is kept, NULL-extended when nothing matches). The one definition behind the estimate of a LEFT join
  /// node (left rows times this) and the join enumerator's LEFT edges.
  double left_join_fanout(const LogicalJoin& j, double left_rows, double right_rows) const;
  /// Observed rows of the inner join of `inputs` under `conditions`, found by its join-set
  /// signature (nullopt without a source or an observation; `lower_bound` when the observation is
  /// only one: the enumerator takes it as "at least", as estimate_node does). The join enumerator
  /// asks this for every set of relations it prices, so an observation of any sub-join, from any
  /// earlier query and join order, steers the order.
  /// `members`: the semi joins inside the set (PlanSigner::join_set_of).
  std::optional<joinorder::ObservedCardinality> observed_join_rows(const std::vector<const LogicalOperator*>& inputs,
                                           const std::vector<const Expr*>& conditions,
                                           const std::vector<PlanSigner::SemiMemberRef>& members = {});
  bool has_stats_source() const { return source_ != nullptr; }
  /// The selectivity of several equi-join keys between the same inputs: exponential backoff
  /// (most selective fully, the next square-rooted, ...), not the independence product.
  static double combine_key_selectivities(std::vector<double> sels);
  /// The selectivity of the equi-join conditions `eqs` (two or more, each `column = column`) between `left` and
  /// `right` by containment on the whole key: non-NULL shares / max(distinct key combinations of each side). Only
  /// when each side's key columns are read by one scan of a base table and set_key_distinct knows both counts;
  /// nullopt otherwise (the caller combines the single keys by backoff).
  std::optional<double> composite_key_selectivity(const std::vector<const Expr*>& eqs, const LogicalOperator& left,
                                                  const LogicalOperator& right) const;
  /// Distinct combinations of base-table columns (ids of one scan's outputs, as the scan's table names them);
  /// nullopt when unknown.
  void set_key_distinct(std::function<std::optional<double>(const std::vector<ColumnId>&)> fn) {
    key_distinct_ = std::move(fn);
  }
  /// Statistics of a column by its lineage (nullptr when unknown).
  void set_column_stats(std::function<const ColumnStatistics*(ColumnId)> fn) { column_stats_ = std::move(fn); }
  /// The share of a scan's rows its filters keep, judged on a sample of the table's rows; nullopt when the sample
  /// cannot tell (too few of its rows kept, or none stored): the per-column statistics then judge each conjunct.
  /// Not asked for a filter the statistics of its one column judge whole (judged_by_one_column).
  void set_filter_sample(std::function<std::optional<double>(const LogicalGet&)> fn) { filter_sample_ = std::move(fn); }
  /// Rows of materialized CTE i (its producer's estimate).
  void set_cte_rows(std::function<double(int)> fn) { cte_rows_ = std::move(fn); }
  /// Consult `source` (not owned; nullptr or an empty source: model only). Signatures are computed
  /// over `ctx` afresh for each estimate() call, so plans rewritten in place between calls (join
  /// reordering reuses node ids) are never looked up by a stale signature. `prepare` registers
  /// the materialized CTEs with the signer.
  void set_stats_source(const stats::StatsSource* source, const PlanContext* ctx,
                        std::function<void(PlanSigner&)> prepare = {});

 private:
  std::function<double(const TableDef&)> table_rows_;
  std::function<double(int)> cte_rows_;
  std::function<const ColumnStatistics*(ColumnId)> column_stats_;
  std::function<std::optional<double>(const std::vector<ColumnId>&)> key_distinct_;
  std::function<std::optional<double>(const LogicalGet&)> filter_sample_;
  const stats::StatsSource* source_ = nullptr;
  const PlanContext* sign_ctx_ = nullptr;
  std::function<void(PlanSigner&)> prepare_signer_;
  std::unique_ptr<PlanSigner> signer_;  ///< for the current estimate() call only
  std::unique_ptr<PlanSigner> lookup_signer_;  ///< observed_join_rows; dropped by estimate()
  double estimate_node(LogicalOperator& op);
  double fixed_selectivity(const Expr& e) const;
  /// Rows of the inner join of inputs of `left_rows` and `right_rows` under `j`'s conditions.
  double inner_join_rows(const LogicalJoin& j, double left_rows, double right_rows) const;
  const ColumnStatistics* stats_of(const Expr& e) const;
  /// `column op constant` (either way round; the op as seen from the column) over a column with statistics and a
  /// non-NULL constant, comparisons only; false otherwise.
  struct ColumnComparison {
    const Expr* column = nullptr;
    const ColumnStatistics* stats = nullptr;
    ScalarOp op = ScalarOp::Eq;
    const Value* value = nullptr;
  };
  bool column_comparison(const Expr& e, ColumnComparison& out) const;
  double selectivity_of(const ColumnComparison& c) const;
  /// True when every conjunct reads one and the same column and is a shape its statistics judge (a comparison with
  /// a constant, an IN list of constants, LIKE a constant, IS NULL, and AND/OR/NOT of those): its histogram and most
  /// common values then know the share better than a sample of rows would.
  bool judged_by_one_column(const std::vector<ExprPtr>& conjuncts) const;
};

}  // namespace hindsight
