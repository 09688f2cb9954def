// evaluate_filter: the selection vector of the rows where a predicate is TRUE. Conjunctions refine one selection
// vector in place; comparisons of a column with a constant or another column, ranges (lo <= c AND c < hi), IN lists
// of constants, LIKE with a constant pattern and IS [NOT] NULL read the input columns directly without materializing
// anything. Every other predicate is evaluated as a boolean column over the rows still selected.
#include <algorithm>
#include <iterator>
#include <string_view>

#include "planner/expr/compare_ops.hpp"
#include "planner/expr/eval_internal.hpp"
#include "planner/expr/evaluator.hpp"
#include "planner/expr/like_pattern.hpp"

namespace hindsight {
namespace eval {
namespace {

// The rows still selected: every row of [begin, end) (not yet materialized) or the ascending list `rows`.
struct Selection {
  std::vector<uint32_t>& rows;
  bool all;
  size_t begin;
  size_t end;

  bool empty() const { return all ? begin == end : rows.empty(); }
  void clear() {
    rows.clear();
    all = false;
  }
  void materialize() {
    if (!all) return;
    rows.resize(end - begin);
    for (size_t i = begin; i < end; ++i) rows[i - begin] = static_cast<uint32_t>(i);
    all = false;
  }
};

// What the predicate reads: the columns (by ColumnRef index) and the rows [begin, end) of them it filters.
struct Input {
  Columns columns;
  size_t begin = 0;
  size_t end = 0;
};

// Keeps the selected rows i for which keep(i); branch-free compaction in place.
template <typename Keep>
void refine(Selection& s, Keep&& keep) {
  auto& v = s.rows;
  size_t k = 0;
  if (s.all) {
    v.resize(s.end - s.begin);
    for (size_t r = s.begin; r < s.end; ++r) {
      const uint32_t i = static_cast<uint32_t>(r);
      v[k] = i;
      k += keep(i) ? 1 : 0;
    }
    s.all = false;
  } else {
    for (size_t j = 0; j < v.size(); ++j) {
      const uint32_t i = v[j];
      v[k] = i;
      k += keep(i) ? 1 : 0;
    }
  }
  v.resize(k);
}

template <typename Keep>
void refine_non_null(Selection& s, const ColumnVector& c, Keep&& keep) {
  if (c.has_nulls()) {
    const uint8_t* nulls = c.nulls.data();
    refine(s, [&](uint32_t i) { return !nulls[i] && keep(i); });
  } else {
    refine(s, keep);
  }
}

// The input column a ColumnRef reads, if it can be read directly.
const ColumnVector* input_column(const Expr& e, const Input& input) {
  if (e.kind != ExprKind::ColumnRef || e.index < 0 || static_cast<size_t>(e.index) >= input.columns.size())
    return nullptr;
  const ColumnVector& c = input.columns[static_cast<size_t>(e.index)];
  return c.type.physical() == e.type.physical() && c.size() >= input.end ? &c : nullptr;
}

// `column op constant`, with `constant op column` mirrored into that form.
struct ColumnBound {
  const ColumnVector* col = nullptr;
  int index = -1;
  ScalarOp op = ScalarOp::Eq;
  ColumnVector value;  // one row
};

bool match_bound(const Expr& e, const Input& input, ColumnBound& out) {
  if (e.kind != ExprKind::Call || !is_comparison(e.op) || e.children.size() != 2) return false;
  const Expr* c = e.children[0].get();
  const Expr* k = e.children[1].get();
  ScalarOp op = e.op;
  if (c->kind == ExprKind::Constant && k->kind == ExprKind::ColumnRef) {
    std::swap(c, k);
    op = mirror(op);
  }
  if (k->kind != ExprKind::Constant || c->type != k->type) return false;
  out.col = input_column(*c, input);
  if (!out.col) return false;
  out.index = c->index;
  out.op = op;
  out.value = constant_column(*k);
  return true;
}

// Calls f(values, constant) with the raw values of `b`'s column and its constant, typed by physical kind.
template <typename F>
void with_values(const ColumnBound& b, F&& f) {
  switch (b.col->type.physical()) {
    case PhysicalKind::Int64:
      return f(b.col->ints.data(), b.value.ints[0]);
    case PhysicalKind::Double:
      return f(b.col->dbls.data(), b.value.dbls[0]);
    case PhysicalKind::String:
      return f(b.col->strs.data(), std::string_view(b.value.strs[0]));
  }
}

void filter_bound(const ColumnBound& b, Selection& s) {
  if (b.value.is_null(0)) return s.clear();
  with_comparator(b.op, [&](auto cmp) {
    with_values(
        b, [&](const auto* v, const auto k) { refine_non_null(s, *b.col, [&](uint32_t i) { return cmp(v[i], k); }); });
  });
}

// The one-row constant of a bound as T (int64_t, double or std::string_view).
template <typename T>
T constant_as(const ColumnVector& v) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return v.ints[0];
  } else if constexpr (std::is_same_v<T, double>) {
    return v.dbls[0];
  } else {
    return std::string_view(v.strs[0]);
  }
}

// lo <(=) c AND c <(=) hi in one pass (both bounds are on the same column, hence of one physical kind).
void filter_range(const ColumnBound& lo, const ColumnBound& hi, Selection& s) {
  if (lo.value.is_null(0) || hi.value.is_null(0)) return s.clear();
  with_comparator(lo.op, [&](auto lo_cmp) {
    with_comparator(hi.op, [&](auto hi_cmp) {
      with_values(lo, [&](const auto* v, const auto lk) {
        const auto hk = constant_as<std::decay_t<decltype(lk)>>(hi.value);
        refine_non_null(s, *lo.col, [&](uint32_t i) { return lo_cmp(v[i], lk) & hi_cmp(v[i], hk); });
      });
    });
  });
}

bool is_lower(ScalarOp op) { return op == ScalarOp::Gt || op == ScalarOp::Ge; }
bool is_upper(ScalarOp op) { return op == ScalarOp::Lt || op == ScalarOp::Le; }

// `column op column` of one type.
bool filter_column_pair(const Expr& e, const Input& input, Selection& s) {
  if (e.kind != ExprKind::Call || !is_comparison(e.op) || e.children.size() != 2) return false;
  const Expr& l = *e.children[0];
  const Expr& r = *e.children[1];
  if (l.type != r.type) return false;
  const ColumnVector* a = input_column(l, input);
  const ColumnVector* b = input_column(r, input);
  if (!a || !b) return false;
  const uint8_t* an = a->has_nulls() ? a->nulls.data() : nullptr;
  const uint8_t* bn = b->has_nulls() ? b->nulls.data() : nullptr;
  with_comparator(e.op, [&](auto cmp) {
    auto run = [&](const auto* x, const auto* y) {
      if (an || bn) {
        refine(s, [&](uint32_t i) { return !(an && an[i]) && !(bn && bn[i]) && cmp(x[i], y[i]); });
      } else {
        refine(s, [&](uint32_t i) { return cmp(x[i], y[i]); });
      }
    };
    switch (a->type.physical()) {
      case PhysicalKind::Int64:
        return run(a->ints.data(), b->ints.data());
      case PhysicalKind::Double:
        return run(a->dbls.data(), b->dbls.data());
      case PhysicalKind::String:
        return run(a->strs.data(), b->strs.data());
    }
  });
  return true;
}

bool filter_in_list(const Expr& e, const Input& input, Selection& s) {
  const ColumnVector* c = input_column(*e.children.at(0), input);
  if (!c) return false;
  for (size_t k = 1; k < e.children.size(); ++k)
    if (!e.children[k]->is_constant()) return false;
  InListParts parts = split_in_list(e);
  // NOT IN with a NULL in the list is FALSE or NULL, never TRUE.
  if (e.negated && parts.has_null) {
    s.clear();
    return true;
  }
  const bool want = !e.negated;
  auto run = [&](const auto& set, const auto* v) {
    refine_non_null(s, *c, [&](uint32_t i) { return set.contains(v[i]) == want; });
  };
  switch (c->type.physical()) {
    case PhysicalKind::Int64:
      run(make_in_set<int64_t>(parts.constants), c->ints.data());
      break;
    case PhysicalKind::Double:
      run(make_in_set<double>(parts.constants), c->dbls.data());
      break;
    case PhysicalKind::String: {
      auto set = make_in_set<std::string_view>(parts.constants);
      const std::string* v = c->strs.data();
      refine_non_null(s, *c, [&](uint32_t i) { return set.contains(std::string_view(v[i])) == want; });
      break;
    }
  }
  return true;
}

bool filter_like(const Expr& e, const Input& input, Selection& s) {
  const ColumnVector* c = input_column(*e.children.at(0), input);
  const Expr& p = *e.children.at(1);
  if (!c || c->type.physical() != PhysicalKind::String || !p.is_constant()) return false;
  ColumnVector pv = constant_column(p);
  if (pv.is_null(0)) {
    s.clear();
    return true;
  }
  const LikePattern pattern(pv.strs.at(0));
  const std::string* v = c->strs.data();
  const bool want = !e.negated;
  refine_non_null(s, *c, [&](uint32_t i) { return pattern.matches(v[i]) == want; });
  return true;
}

void filter_node(const Expr& e, const Input& input, Selection& s);

// Any predicate: evaluated as a boolean column over the selected rows.
void filter_generic(const Expr& e, const Input& input, Selection& s) {
  if (s.empty()) return;
  // Columns borrowed in place may be longer than the rows filtered: evaluate them through a selection.
  if (s.all && (input.columns.borrowed || input.begin != 0)) s.materialize();
  Context ctx{input.columns, s.all ? nullptr : &s.rows, s.all ? input.end : s.rows.size()};
  Operand v = eval_node(e, ctx);
  const int64_t* vals = v.col().ints.data();
  if (s.all) {
    refine(s, [&](uint32_t i) { return !v.null_at(i) && vals[v.at(i)] != 0; });
    return;
  }
  size_t k = 0;
  for (size_t j = 0; j < s.rows.size(); ++j)
    if (!v.null_at(j) && vals[v.at(j)] != 0) s.rows[k++] = s.rows[j];
  s.rows.resize(k);
}

// AND: cheap column-vs-constant bounds first (a column's lower and upper bound fused into one range pass), then the
// other conjuncts on the rows that survive.
void filter_and(const Expr& e, const Input& input, Selection& s) {
  std::vector<ColumnBound> bounds;
  std::vector<const Expr*> rest;
  for (auto& child : e.children) {
    ColumnBound b;
    if (match_bound(*child, input, b)) {
      bounds.push_back(std::move(b));
    } else {
      rest.push_back(child.get());
    }
  }
  std::vector<bool> used(bounds.size(), false);
  for (size_t i = 0; i < bounds.size() && !s.empty(); ++i) {
    if (used[i]) continue;
    used[i] = true;
    size_t partner = bounds.size();
    for (size_t j = i + 1; j < bounds.size() && partner == bounds.size(); ++j)
      if (!used[j] && bounds[j].index == bounds[i].index &&
          ((is_lower(bounds[i].op) && is_upper(bounds[j].op)) || (is_upper(bounds[i].op) && is_lower(bounds[j].op))))
        partner = j;
    if (partner == bounds.size()) {
      filter_bound(bounds[i], s);
    } else {
      used[partner] = true;
      filter_range(bounds[i], bounds[partner], s);
    }
  }
  for (const Expr* child : rest) {
    if (s.empty()) return;
    filter_node(*child, input, s);
  }
}

// OR: each disjunct selects among the rows no earlier disjunct took; the union is merged back in order.
void filter_or(const Expr& e, const Input& input, Selection& s) {
  s.materialize();
  std::vector<uint32_t> remaining = s.rows, taken, candidates, merged;
  for (auto& child : e.children) {
    if (remaining.empty()) break;
    candidates = remaining;
    Selection sub{candidates, false, s.begin, s.end};
    filter_node(*child, input, sub);
    if (candidates.empty()) continue;
    merged.clear();
    std::set_union(taken.begin(), taken.end(), candidates.begin(), candidates.end(), std::back_inserter(merged));
    taken.swap(merged);
    merged.clear();
    std::set_difference(remaining.begin(), remaining.end(), candidates.begin(), candidates.end(),
                        std::back_inserter(merged));
    remaining.swap(merged);
  }
  s.rows.swap(taken);
}

void filter_node(const Expr& e, const Input& input, Selection& s) {
  if (s.empty()) return;
  switch (e.kind) {
    case ExprKind::And:
      return filter_and(e, input, s);
    case ExprKind::Or:
      return filter_or(e, input, s);
    case ExprKind::Call: {
      ColumnBound b;
      if (match_bound(e, input, b)) return filter_bound(b, s);
      if (filter_column_pair(e, input, s)) return;
      break;
    }
    case ExprKind::InList:
      if (filter_in_list(e, input, s)) return;
      break;
    case ExprKind::Like:
      if (filter_like(e, input, s)) return;
      break;
    case ExprKind::IsNull:
      if (const ColumnVector* c = input_column(*e.children.at(0), input)) {
        if (!c->has_nulls()) {
          if (!e.negated) s.clear();
          return;
        }
        const uint8_t* nulls = c->nulls.data();
        return refine(s, [&](uint32_t i) { return (nulls[i] != 0) != e.negated; });
      }
      break;
    case ExprKind::Constant: {
      ColumnVector v = constant_column(e);
      if (v.is_null(0) || v.type.physical() != PhysicalKind::Int64 || v.ints[0] == 0) s.clear();
      return;
    }
    default:
      break;
  }
  filter_generic(e, input, s);
}

}  // namespace
}  // namespace eval

void evaluate_filter(const Expr& predicate, const Batch& input, std::vector<uint32_t>& selection) {
  selection.clear();
  const eval::Input in{eval::Columns{&input.columns, nullptr}, 0, input.rows};
  eval::Selection s{selection, true, 0, input.rows};
  eval::filter_node(predicate, in, s);
  s.materialize();
}

void evaluate_filter(const Expr& predicate, const std::vector<const ColumnVector*>& columns, size_t begin, size_t end,
                     std::vector<uint32_t>& selection) {
  selection.clear();
  const eval::Input in{eval::Columns{nullptr, &columns}, begin, end};
  eval::Selection s{selection, true, begin, end};
  eval::filter_node(predicate, in, s);
  s.materialize();
}

}  // namespace hindsight
