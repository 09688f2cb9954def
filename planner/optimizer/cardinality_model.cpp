#include "planner/optimizer/cardinality_model.hpp"

#include "planner/logical/plan_utils.hpp"

#include "planner/optimizer/stats/column_statistics.hpp"
#include "planner/optimizer/stats/selectivity.hpp"
#include "planner/signing/plan_signer.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace hindsight {

namespace {
/// The column under value-preserving casts, or nullptr.
const Expr* column_under_casts(const Expr& e) {
  const Expr* x = &e;
  while (x->kind == ExprKind::Cast) x = x->children[0].get();
  return x->kind == ExprKind::ColumnRef ? x : nullptr;
}

/// The frequencies of a column's values by rank past its k most common ones (`mcv`, most frequent first, k >= 2):
/// taken to fall as a power of the rank, fitted through the first and the last of them (Zipf's law, where skewed keys
/// follow it; a flat fit on uniform data): frequency(r) = least * (r / k)^-s.
struct RankFrequencies {
  explicit RankFrequencies(const std::vector<std::pair<Value, uint64_t>>& mcv)
      : k(static_cast<double>(mcv.size())),
        least(static_cast<double>(mcv.back().second)),
        s(least > 0 ? std::log(static_cast<double>(mcv.front().second) / least) / std::log(k) : 0) {}
  /// Rows of the values ranked k+1..last.
  double rows_through(double last) const {
    if (last <= k || least <= 0) return 0;
    auto integral = [&](double r) {  // of frequency(r) from 0 to r
      return std::abs(s - 1) < 1e-6 ? least * k * std::log(r) : least * std::pow(k, s) * std::pow(r, 1 - s) / (1 - s);
    };
    return std::max(0.0, integral(last + 0.5) - integral(k + 0.5));
  }
  /// The last rank whose frequency is still c or more (c <= least), at most `distinct` (every rank on a flat fit).
  double last_rank_with(double c, double distinct) const {
    return s < 1e-3 ? distinct : std::min(distinct, k * std::pow(least / c, 1 / s));
  }
  double k, least, s;
};

/// Keys count as skewed when the most common value holds at least this many times the average key's rows (Zipf-
/// skewed TPC-H keys: hundreds of times; uniform ones: about twice).
constexpr double kSkewedFirst = 4;

/// The share of a table's rows whose value in column `key` is among the keys a build side selects by their
/// frequency in that same column, from the column's most common values (`cs`: the most frequent values, most
/// frequent first, with their rows), or nullopt when `build` is not such a selection. The forms, above an
/// Aggregate GROUP BY key with COUNT(*) over the table's unfiltered scan (projections of columns between):
/// - the n most frequent keys (a Limit n over a Sort whose first key is the count, descending): the first n most
///   common values' rows, exactly when n is within them, and past them by RankFrequencies (skewed keys) or at the average;
/// - the keys with at least c rows (a Filter count > c - 1 or count >= c), skewed keys only: the most common values
///   with at least c rows, and past them, when the least of them has c rows or more, the ranks RankFrequencies
///   takes to have c or more.
/// Containment (semi_join_keep) takes the kept keys for average ones; these are the frequent ones, which on
/// skewed data hold most of the rows (the 5 customers with the most orders: 0.01 % of the orders by containment,
/// 19 % at SF 1 skew 1).
std::optional<double> frequency_selected_share(const LogicalOperator& build, ColumnId key, const ColumnStatistics& cs) {
  // Down to the aggregate, through single-input operators, noting the ones that select.
  std::vector<const LogicalOperator*> chain;
  const LogicalOperator* op = &build;
  while (op->kind == LogicalKind::Project || op->kind == LogicalKind::Limit || op->kind == LogicalKind::Sort ||
         op->kind == LogicalKind::Filter) {
    chain.push_back(op);
    op = op->children.at(0).get();
  }
  if (op->kind != LogicalKind::Aggregate) return std::nullopt;
  const auto& agg = op->as<LogicalAggregate>();
  const LogicalOperator* input = op->children.at(0).get();
  while (input->kind == LogicalKind::Project) input = input->children.at(0).get();  // the columns it reads
  if (agg.groups.size() != 1 || input->kind != LogicalKind::Get || !input->as<LogicalGet>().filters.empty())
    return std::nullopt;
  if (agg.outputs.size() != agg.groups.size() + agg.aggs.size()) return std::nullopt;
  ColumnId count = kInvalidColumn;
  for (size_t i = 0; i < agg.aggs.size(); ++i)
    if (agg.aggs[i].kind == AggKind::CountStar) count = agg.outputs[agg.groups.size() + i];
  if (count == kInvalidColumn) return std::nullopt;
  // Up again: the group key and the count through the projections, then what selects on the count.
  ColumnId group = agg.groups[0];
  int64_t top = -1;        // the n most frequent
  double at_least = -1;    // keys with at least this many rows
  bool sorted_by_count = false;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const LogicalOperator& n = **it;
    if (n.kind == LogicalKind::Project) {
      ColumnId g = kInvalidColumn, c = kInvalidColumn;
      const auto& pr = n.as<LogicalProject>();
      for (size_t i = 0; i < pr.exprs.size(); ++i) {
        const Expr* col = column_under_casts(*pr.exprs[i]);
        if (col && col->column_id == group) g = n.outputs[i];
        if (col && col->column_id == count) c = n.outputs[i];
      }
      group = g;
      count = c;
      if (group == kInvalidColumn) return std::nullopt;
    } else if (n.kind == LogicalKind::Sort) {
      const auto& keys = n.as<LogicalSort>().keys;
      sorted_by_count = !keys.empty() && keys[0].column == count && !keys[0].ascending;
    } else if (n.kind == LogicalKind::Limit) {
      const auto& l = n.as<LogicalLimit>();
      if (!sorted_by_count || l.offset != 0 || l.limit < 0 || top >= 0) return std::nullopt;
      top = l.limit;
    } else {  // Filter: only count > c or count >= c
      for (auto& c : n.as<LogicalFilter>().conjuncts) {
        const Expr* col = c->kind == ExprKind::Call && c->children.size() == 2 ? column_under_casts(*c->children[0])
                                                                               : nullptr;
        if (!col || col->column_id != count || !c->children[1]->is_constant() || c->children[1]->value.is_null ||
            (c->op != ScalarOp::Gt && c->op != ScalarOp::Ge))
          return std::nullopt;
        const double v = c->children[1]->value.as_double();
        at_least = std::max(at_least, c->op == ScalarOp::Gt ? std::floor(v) + 1 : std::ceil(v));
      }
    }
  }
  // (A threshold of one row or none keeps every key: containment says as much. Both forms at once: left to it too.)
  if (group != key || (top < 0 && at_least <= 1) || (top >= 0 && at_least > 0) || cs.rows == 0) return std::nullopt;
  const auto& mcv = cs.most_common;
  if (mcv.size() < 2) return std::nullopt;
  double mcv_rows = 0;
  for (const auto& m : mcv) mcv_rows += static_cast<double>(m.second);
  const double k = static_cast<double>(mcv.size());
  const double rest_rows = std::max(0.0, static_cast<double>(cs.rows - cs.null_count) - mcv_rows);
  const double distinct = std::max(cs.distinct, k);
  // Skewed: the most common value holds several times the average key's rows. Else (uniform keys: the most common
  // values are the top of a narrow spread, and a power fit through them says nothing of the rest) the keys past
  // them are average ones, and a frequency threshold is left to containment.
  const double average = static_cast<double>(cs.rows - cs.null_count) / distinct;
  const bool skewed = static_cast<double>(mcv.front().second) >= kSkewedFirst * average;
  double rows = 0;
  if (top >= 0) {
    for (size_t i = 0; i < mcv.size() && i < static_cast<size_t>(top); ++i) rows += static_cast<double>(mcv[i].second);
    const double last = std::min(static_cast<double>(top), distinct);
    rows += std::min(rest_rows, skewed ? RankFrequencies(mcv).rows_through(last)
                                       : std::max(0.0, last - k) * rest_rows / std::max(1.0, distinct - k));
  } else {
    if (!skewed) return std::nullopt;
    for (const auto& m : mcv)
      if (static_cast<double>(m.second) >= at_least) rows += static_cast<double>(m.second);
    const RankFrequencies ranks(mcv);
    if (ranks.least >= at_least) rows += std::min(rest_rows, ranks.rows_through(ranks.last_rank_with(at_least, distinct)));
  }
  return std::min(1.0, rows / static_cast<double>(cs.rows));
}
}  // namespace

CardinalityModel::CardinalityModel(std::function<double(const TableDef&)> table_rows)
    : table_rows_(std::move(table_rows)) {}
CardinalityModel::~CardinalityModel() = default;

void CardinalityModel::set_stats_source(const stats::StatsSource* source, const PlanContext* ctx,
                                        std::function<void(PlanSigner&)> prepare) {
  source_ = source && !source->empty() ? source : nullptr;
  sign_ctx_ = ctx;
  prepare_signer_ = std::move(prepare);
}

std::optional<joinorder::ObservedCardinality> CardinalityModel::observed_join_rows(const std::vector<const LogicalOperator*>& inputs,
                                                          const std::vector<const Expr*>& conditions,
                                                          const std::vector<PlanSigner::SemiMemberRef>& members) {
  if (!source_ || !sign_ctx_) return std::nullopt;
  if (!lookup_signer_) {
    lookup_signer_ = std::make_unique<PlanSigner>(*sign_ctx_);
    if (prepare_signer_) prepare_signer_(*lookup_signer_);
  }
  auto o = source_->find(stats::StatsSource::KeyKind::JoinSet, lookup_signer_->join_set_of(inputs, conditions, members));
  if (!o) return std::nullopt;
  return joinorder::ObservedCardinality(std::max(1.0, o->rows), o->lower_bound);
}

double CardinalityModel::estimate(LogicalOperator& op) {
  lookup_signer_.reset();  // the plan may have changed since the last lookups
  if (source_ && sign_ctx_) {
    signer_ = std::make_unique<PlanSigner>(*sign_ctx_);
    if (prepare_signer_) prepare_signer_(*signer_);
  }
  double rows = estimate_node(op);
  signer_.reset();
  return rows;
}

const ColumnStatistics* CardinalityModel::stats_of(const Expr& e) const {
  if (!column_stats_) return nullptr;
  const Expr* c = column_under_casts(e);
  return c ? column_stats_(c->column_id) : nullptr;
}

bool CardinalityModel::column_comparison(const Expr& e, ColumnComparison& out) const {
  if (e.kind != ExprKind::Call || e.children.size() != 2 || !is_comparison_op(e.op)) return false;
  const Expr* col = &*e.children[0];
  const Expr* cst = &*e.children[1];
  ScalarOp op = e.op;
  if (col->is_constant()) {
    std::swap(col, cst);
    op = mirror_comparison(op);
  }
  const ColumnStatistics* cs = cst->is_constant() && !cst->value.is_null ? stats_of(*col) : nullptr;
  if (!cs) return false;
  out = ColumnComparison{column_under_casts(*col), cs, op, &cst->value};
  return out.column != nullptr;
}

double CardinalityModel::selectivity_of(const ColumnComparison& c) const {
  const ColumnStatistics& cs = *c.stats;
  const Value& v = *c.value;
  switch (c.op) {
    case ScalarOp::Eq: return eq_selectivity(cs, v);
    case ScalarOp::Ne: return ne_selectivity(cs, v);
    case ScalarOp::Lt: return range_selectivity(cs, std::nullopt, false, v, false);
    case ScalarOp::Le: return range_selectivity(cs, std::nullopt, false, v, true);
    case ScalarOp::Gt: return range_selectivity(cs, v, false, std::nullopt, false);
    default: return range_selectivity(cs, v, true, std::nullopt, false);
  }
}

double CardinalityModel::conjunction_selectivity(const std::vector<const Expr*>& conjuncts) const {
  struct Interval {
    const ColumnComparison* lower = nullptr;
    const ColumnComparison* upper = nullptr;
    int bounds = 0;
  };
  std::vector<ColumnComparison> ranges;
  ranges.reserve(conjuncts.size());
  double s = 1;
  for (const Expr* c : conjuncts) {
    ColumnComparison cmp;
    if (column_comparison(*c, cmp) && cmp.op != ScalarOp::Eq && cmp.op != ScalarOp::Ne) ranges.push_back(cmp);
    else s *= selectivity(*c);
  }
  std::map<ColumnId, Interval> intervals;
  for (const ColumnComparison& r : ranges) {
    Interval& i = intervals[r.column->column_id];
    ++i.bounds;
    (r.op == ScalarOp::Gt || r.op == ScalarOp::Ge ? i.lower : i.upper) = &r;
  }
  for (const ColumnComparison& r : ranges) {
    const Interval& i = intervals[r.column->column_id];
    if (i.bounds == 2 && i.lower && i.upper) {
      if (&r != i.lower) continue;  // the interval is counted once, at its lower bound
      s *= range_selectivity(*r.stats, *i.lower->value, i.lower->op == ScalarOp::Ge, *i.upper->value,
                             i.upper->op == ScalarOp::Le);
    } else {
      s *= selectivity_of(r);
    }
  }
  return s;
}

double CardinalityModel::selectivity(const Expr& e) const {
  // Column-against-constant shapes first, from the column's statistics.
  if (ColumnComparison cmp; column_comparison(e, cmp)) return selectivity_of(cmp);
  if (e.kind == ExprKind::InList) {
    const ColumnStatistics* cs = stats_of(*e.children[0]);
    std::vector<Value> values;
    for (size_t i = 1; i < e.children.size() && cs; ++i) {
      if (!e.children[i]->is_constant()) cs = nullptr;
      else values.push_back(e.children[i]->value);
    }
    if (cs) {
      double s = in_selectivity(*cs, values);
      return e.negated ? std::max(0.0, 1 - s - null_selectivity(*cs)) : s;
    }
  }
  if (e.kind == ExprKind::Like && e.children[1]->is_constant() && !e.children[1]->value.is_null) {
    const ColumnStatistics* cs = stats_of(*e.children[0]);
    const std::string& pattern = e.children[1]->value.s;
    std::string prefix = pattern.substr(0, pattern.find_first_of("%_"));
    if (cs) {
      // 'abc%' is a range; any other pattern is matched against the most common values and the
      // histogram bounds.
      const bool prefix_only = !prefix.empty() && pattern.find_first_of("%_") == pattern.size() - 1 && pattern.back() == '%';
      double s = prefix_only ? like_prefix_selectivity(*cs, prefix) : like_pattern_selectivity(*cs, pattern);
      return e.negated ? std::max(0.0, 1 - s - null_selectivity(*cs)) : s;
    }
  }
  if (e.kind == ExprKind::IsNull)
    if (const ColumnStatistics* cs = stats_of(*e.children[0]))
      return e.negated ? not_null_selectivity(*cs) : null_selectivity(*cs);
  if (e.kind == ExprKind::And) {
    std::vector<const Expr*> conjuncts;
    for (auto& c : e.children) conjuncts.push_back(c.get());
    return conjunction_selectivity(conjuncts);
  }
  if (e.kind == ExprKind::Or) {
    double miss = 1;
    for (auto& c : e.children) miss *= 1 - selectivity(*c);
    return 1 - miss;
  }
  if (e.kind == ExprKind::Not) return 1 - selectivity(*e.children[0]);
  return fixed_selectivity(e);
}

bool CardinalityModel::judged_by_one_column(const std::vector<ExprPtr>& conjuncts) const {
  std::optional<ColumnId> column;
  auto same_column = [&](const Expr& e) {
    const Expr* c = column_under_casts(e);
    if (!c || (column && *column != c->column_id)) return false;
    column = c->column_id;
    return stats_of(*c) != nullptr;
  };
  std::function<bool(const Expr&)> judged = [&](const Expr& e) -> bool {
    if (ColumnComparison cmp; column_comparison(e, cmp)) return same_column(*cmp.column);
    switch (e.kind) {
      case ExprKind::InList:
        for (size_t i = 1; i < e.children.size(); ++i)
          if (!e.children[i]->is_constant()) return false;
        return same_column(*e.children[0]);
      case ExprKind::Like:
        return e.children[1]->is_constant() && !e.children[1]->value.is_null && same_column(*e.children[0]);
      case ExprKind::IsNull: return same_column(*e.children[0]);
      case ExprKind::And:
      case ExprKind::Or:
      case ExprKind::Not:
        return std::all_of(e.children.begin(), e.children.end(), [&](const ExprPtr& c) { return judged(*c); });
      default: return false;
    }
  };
  return std::all_of(conjuncts.begin(), conjuncts.end(), [&](const ExprPtr& c) { return judged(*c); });
}

double CardinalityModel::join_condition_selectivity(const Expr& c, double left_rows, double right_rows) const {
  if (c.kind == ExprKind::Call && c.op == ScalarOp::Eq) {
    const ColumnStatistics* a = stats_of(*c.children[0]);
    const ColumnStatistics* b = stats_of(*c.children[1]);
    if (a && b) return join_selectivity(*a, *b);
    return 1.0 / std::max(1.0, std::max(left_rows, right_rows));
  }
  return 0.3;
}

double CardinalityModel::combine_key_selectivities(std::vector<double> sels) {
  // Exponential backoff: the most selective key counts fully, the next with its square root, the
  // third with its fourth root... Composite join keys are usually correlated (l_partkey and
  // l_suppkey together reference one partsupp row); multiplying them as if independent made
  // TPC-H Q9's lineitem ⋈ partsupp 250x too small.
  std::sort(sels.begin(), sels.end());
  double s = 1, power = 1;
  for (double x : sels) {
    s *= std::pow(std::clamp(x, 0.0, 1.0), power);
    power /= 2;
  }
  return s;
}

namespace {
/// True when one scan in `op`'s subtree outputs every column of `ids`.
bool one_scan_reads(const LogicalOperator& op, const std::vector<ColumnId>& ids) {
  if (op.kind == LogicalKind::Get)
    return std::all_of(ids.begin(), ids.end(), [&](ColumnId id) {
      return std::find(op.outputs.begin(), op.outputs.end(), id) != op.outputs.end();
    });
  return std::any_of(op.children.begin(), op.children.end(), [&](auto& c) { return one_scan_reads(*c, ids); });
}
}  // namespace

std::optional<double> CardinalityModel::composite_key_selectivity(const std::vector<const Expr*>& eqs,
                                                                  const LogicalOperator& left,
                                                                  const LogicalOperator& right) const {
  if (eqs.size() < 2 || !key_distinct_) return std::nullopt;
  const std::set<ColumnId> left_cols = output_set(left);
  std::vector<ColumnId> left_key, right_key;
  double non_null = 1;
  for (const Expr* c : eqs) {
    if (c->kind != ExprKind::Call || c->op != ScalarOp::Eq) return std::nullopt;
    const Expr* x = column_under_casts(*c->children[0]);
    const Expr* y = column_under_casts(*c->children[1]);
    if (!x || !y) return std::nullopt;
    if (!left_cols.count(x->column_id)) std::swap(x, y);
    if (!left_cols.count(x->column_id) || left_cols.count(y->column_id)) return std::nullopt;
    const ColumnStatistics* a = stats_of(*x);
    const ColumnStatistics* b = stats_of(*y);
    if (!a || !b) return std::nullopt;
    non_null *= (1 - a->null_fraction()) * (1 - b->null_fraction());
    left_key.push_back(x->column_id);
    right_key.push_back(y->column_id);
  }
  // Lineage alone cannot tell two scans of one table apart (a self-join's sides, or one side joining a table twice).
  if (!one_scan_reads(left, left_key) || !one_scan_reads(right, right_key)) return std::nullopt;
  const std::optional<double> l = key_distinct_(left_key);
  const std::optional<double> r = key_distinct_(right_key);
  if (!l || !r) return std::nullopt;
  return non_null / std::max({1.0, *l, *r});
}

double CardinalityModel::semi_join_keep(const LogicalJoin& j, const std::set<ColumnId>& left_cols,
                                        const LogicalOperator& right) const {
  // Share of left rows with a match, by containment on the first equi-key with statistics:
  // the smaller key domain lies inside the larger, and the right input (after its own
  // filters) holds at most as many distinct keys as it has rows. 0.5 without statistics.
  double match = 0.5;
  for (auto& c : j.conditions) {
    if (c->kind != ExprKind::Call || c->op != ScalarOp::Eq) continue;
    const Expr* x = column_under_casts(*c->children[0]);
    const Expr* y = column_under_casts(*c->children[1]);
    if (!x || !y) continue;
    if (!left_cols.count(x->column_id)) std::swap(x, y);
    if (!left_cols.count(x->column_id) || left_cols.count(y->column_id)) continue;
    const ColumnStatistics* l = stats_of(*x);
    const ColumnStatistics* r = stats_of(*y);
    if (!l || !r) continue;
    double right_ndv = std::min(std::max(1.0, r->distinct), std::max(1.0, right.estimated_rows));
    match = std::min(1.0, right_ndv / std::max(1.0, l->distinct)) * (1 - l->null_fraction());
    // Keys the right side selects by their frequency in this very column (IN the most ordered customers): the rows
    // they hold, not their number, say how many left rows match.
    if (l == r)
      if (auto share = frequency_selected_share(right, y->column_id, *r))
        match = std::max(match, *share);
    break;
  }
  // A condition beyond the equi-keys (TPC-H Q21's l_suppkey <> l_suppkey) must hold for the pair as well: a left
  // row finds a partner that satisfies it only so often. Ignored, an anti join of a table with itself on its key
  // kept no row (est 1 for Q21's 337 k).
  for (auto& c : j.conditions)
    if (c->kind != ExprKind::Call || c->op != ScalarOp::Eq) match *= selectivity(*c);
  return j.type == LogicalJoinType::Semi ? match : 1 - match;
}

double CardinalityModel::inner_join_rows(const LogicalJoin& j, double left_rows, double right_rows) const {
  if (j.conditions.empty()) return left_rows * right_rows;
  std::vector<const Expr*> eqs;
  for (auto& c : j.conditions)
    if (c->kind == ExprKind::Call && c->op == ScalarOp::Eq) eqs.push_back(c.get());
  if (j.children.size() == 2)
    if (auto composite = composite_key_selectivity(eqs, *j.children[0], *j.children[1]))
      return left_rows * right_rows * *composite;
  // Containment: each equi-join key pair with statistics on both sides divides by max(ndv).
  std::vector<double> key_sels;
  for (const Expr* c : eqs) {
    const ColumnStatistics* a = stats_of(*c->children[0]);
    const ColumnStatistics* b = stats_of(*c->children[1]);
    if (a && b) key_sels.push_back(join_selectivity(*a, *b));
  }
  if (!key_sels.empty()) return left_rows * right_rows * combine_key_selectivities(key_sels);
  if (!eqs.empty()) return std::max(left_rows, right_rows);
  return left_rows * right_rows * 0.3;
}

double CardinalityModel::left_join_fanout(const LogicalJoin& j, double left_rows, double right_rows) const {
  // max(inner, left) as a factor of the left rows: with key statistics it does not depend on them, so the rows of
  // a set holding the LEFT join do not depend on the order in which the enumerator formed it.
  if (!(left_rows > 0)) return 1;
  return std::max(1.0, inner_join_rows(j, left_rows, right_rows) / left_rows);
}

double CardinalityModel::fixed_selectivity(const Expr& e) const {
  switch (e.kind) {
    case ExprKind::Call:
      switch (e.op) {
        case ScalarOp::Eq: return 0.1;
        case ScalarOp::Ne: return 0.9;
        case ScalarOp::Lt:
        case ScalarOp::Le:
        case ScalarOp::Gt:
        case ScalarOp::Ge: return 0.3;
        default: return 0.5;
      }
    case ExprKind::Like: return e.negated ? 0.75 : 0.25;
    case ExprKind::InList: {
      double s = std::min(0.5, 0.1 * static_cast<double>(e.children.size() - 1));
      return e.negated ? 1 - s : s;
    }
    case ExprKind::IsNull: return e.negated ? 0.95 : 0.05;
    default: return 0.5;
  }
}

double CardinalityModel::estimate_node(LogicalOperator& op) {
  std::vector<double> in;
  for (auto& c : op.children) in.push_back(estimate_node(*c));
  double rows = 1;
  auto conj_sel = [this](const std::vector<ExprPtr>& conj) {
    std::vector<const Expr*> conjuncts;
    for (auto& c : conj) conjuncts.push_back(c.get());
    return conjunction_selectivity(conjuncts);
  };
  switch (op.kind) {
    case LogicalKind::Get: {
      auto& g = op.as<LogicalGet>();
      std::optional<double> sampled;
      if (!g.filters.empty() && filter_sample_ && !judged_by_one_column(g.filters)) sampled = filter_sample_(g);
      rows = table_rows_(g.table) * (sampled ? *sampled : conj_sel(g.filters));
      break;
    }
    case LogicalKind::Filter: rows = in[0] * conj_sel(op.as<LogicalFilter>().conjuncts); break;
    case LogicalKind::Project:
    case LogicalKind::Sort: rows = in[0]; break;
    case LogicalKind::Join: {
      auto& j = op.as<LogicalJoin>();
      switch (j.type) {
        case LogicalJoinType::Semi:
        case LogicalJoinType::Anti:
        case LogicalJoinType::NullAwareAnti:
          rows = in[0] * semi_join_keep(j, output_set(*op.children[0]), *op.children[1]);
          break;
        case LogicalJoinType::Left: rows = in[0] * left_join_fanout(j, in[0], in[1]); break;
        case LogicalJoinType::Right: rows = std::max(inner_join_rows(j, in[0], in[1]), in[1]); break;
        case LogicalJoinType::Full: rows = std::max(inner_join_rows(j, in[0], in[1]), in[0] + in[1]); break;
        default: rows = inner_join_rows(j, in[0], in[1]);
      }
      break;
    }
    case LogicalKind::Aggregate: {
      auto& a = op.as<LogicalAggregate>();
      std::vector<const ColumnStatistics*> keys;
      for (ColumnId g : a.groups)
        if (const ColumnStatistics* cs = column_stats_ ? column_stats_(g) : nullptr) keys.push_back(cs);
      if (a.groups.empty()) rows = 1;
      else if (keys.size() == a.groups.size()) rows = std::min(in[0], group_count(keys, in[0]));
      else rows = std::max(1.0, in[0] * 0.1);
      break;
    }
    case LogicalKind::Limit: {
      auto& l = op.as<LogicalLimit>();
      rows = std::max(0.0, in[0] - static_cast<double>(l.offset));
      if (l.limit >= 0) rows = std::min(rows, static_cast<double>(l.limit));
      break;
    }
    case LogicalKind::UnionAll:
      rows = 0;
      for (double r : in) rows += r;
      break;
    case LogicalKind::Values: rows = static_cast<double>(op.as<LogicalValues>().rows.size()); break;
    case LogicalKind::CteRef: rows = cte_rows_ ? cte_rows_(op.as<LogicalCteRef>().cte_index) : 1000; break;
  }
  op.estimate_source = stats::EstimateSource::Model;
  op.observed_row_bytes = -1;
  if (signer_) {
    const NodeSignatures& sigs = signer_->sign(op);
    if (auto hit = source_->lookup({sigs.exact, sigs.join_set, sigs.templ})) {
      const stats::ObservedRows& o = hit->observed;
      if (!o.lower_bound || o.rows > rows) {
        rows = o.rows;
        op.estimate_source = hit->source;
      }
      if (o.bytes > 0 && o.rows >= 1) op.observed_row_bytes = static_cast<double>(o.bytes) / o.rows;
    }
  }
  // Never estimate zero for an operator that may produce rows: later products would vanish.
  op.estimated_rows = std::max(1.0, std::round(rows));
  return op.estimated_rows;
}

}  // namespace hindsight
