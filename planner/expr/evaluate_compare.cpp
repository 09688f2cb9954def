// Comparison kernels, NULLIF and IN lists.
#include <string_view>

#include "planner/expr/compare_ops.hpp"
#include "planner/expr/eval_internal.hpp"

namespace hindsight::eval {
namespace {

Operand as_double(const Operand& a, const DataType& from, size_t n) {
  ColumnVector c = eval_cast(from, DataType::float64(), a, a.is_constant() ? 1 : n);
  return a.is_constant() ? Operand::constant(std::move(c)) : Operand::owned(std::move(c));
}

// Brings two operands to one physical kind and one DECIMAL scale. The binder normally did so already; this keeps a
// comparison of DECIMAL(15,2) with DECIMAL(15,4) exact instead of silently wrong.
void align(const DataType& lt, const DataType& rt, const Operand*& l, const Operand*& r, Operand& lbuf, Operand& rbuf,
           size_t n) {
  const PhysicalKind lk = lt.physical(), rk = rt.physical();
  if (lk == PhysicalKind::Int64 && rk == PhysicalKind::Int64) {
    const int ls = scale_of(lt), rs = scale_of(rt);
    if (ls < rs) l = &(lbuf = rescale_operand(*l, ls, rs, n));
    if (rs < ls) r = &(rbuf = rescale_operand(*r, rs, ls, n));
    return;
  }
  if (lk == PhysicalKind::Double && rk == PhysicalKind::Int64) r = &(rbuf = as_double(*r, rt, n));
  if (lk == PhysicalKind::Int64 && rk == PhysicalKind::Double) l = &(lbuf = as_double(*l, lt, n));
  HS_ASSERT((lk == PhysicalKind::String) == (rk == PhysicalKind::String),
            "comparison of " + lt.to_string() + " with " + rt.to_string());
}

}  // namespace

ColumnVector eval_compare(const Expr& e, const std::vector<Operand>& args, size_t n) {
  const DataType& lt = e.children.at(0)->type;
  const DataType& rt = e.children.at(1)->type;
  const Operand* l = &args[0];
  const Operand* r = &args[1];
  Operand lbuf, rbuf;
  align(lt, rt, l, r, lbuf, rbuf, n);
  ColumnVector out(DataType::boolean());
  out.nulls = union_nulls(args, n);
  out.ints.resize(n);
  int64_t* o = out.ints.data();
  const PhysicalKind kind = l->col().type.physical();
  with_comparator(e.op, [&](auto cmp) {
    auto store = [&](size_t i, const auto& a, const auto& b) { o[i] = cmp(a, b); };
    switch (kind) {
      case PhysicalKind::Int64:
        binary_loop(ints_of(*l), l->is_constant(), ints_of(*r), r->is_constant(), n, store);
        break;
      case PhysicalKind::Double:
        binary_loop(dbls_of(*l), l->is_constant(), dbls_of(*r), r->is_constant(), n, store);
        break;
      case PhysicalKind::String:
        binary_loop(strs_of(*l), l->is_constant(), strs_of(*r), r->is_constant(), n, store);
        break;
    }
  });
  return out;
}

ColumnVector eval_nullif(const Expr& e, const std::vector<Operand>& args, size_t n) {
  const Operand& a = args.at(0);
  const Operand& b = args.at(1);
  Operand copy = a;
  ColumnVector out = std::move(copy).materialize(n);
  out.type = e.type;
  if (b.is_null_constant() || a.is_null_constant()) return out;
  auto null_if = [&](size_t i, bool equal) {
    if (equal && !out.is_null(i) && !b.null_at(i)) out.set_null(i);
  };
  switch (e.type.physical()) {
    case PhysicalKind::Int64:
      for (size_t i = 0; i < n; ++i) null_if(i, out.ints[i] == ints_of(b)[b.at(i)]);
      break;
    case PhysicalKind::Double:
      for (size_t i = 0; i < n; ++i) null_if(i, out.dbls[i] == dbls_of(b)[b.at(i)]);
      break;
    case PhysicalKind::String:
      for (size_t i = 0; i < n; ++i) null_if(i, out.strs[i] == strs_of(b)[b.at(i)]);
      break;
  }
  return out;
}

InListParts split_in_list(const Expr& in_list) {
  const DataType& t = in_list.children.at(0)->type;
  InListParts parts;
  parts.constants = ColumnVector(t);
  for (size_t k = 1; k < in_list.children.size(); ++k) {
    const Expr& item = *in_list.children[k];
    if (!item.is_constant()) {
      parts.others.push_back(&item);
      continue;
    }
    ColumnVector c = constant_column(item);
    if (c.is_null(0)) {
      parts.has_null = true;
      continue;
    }
    if (item.type != t) c = eval_cast(item.type, t, Operand::constant(std::move(c)), 1);
    parts.constants.append_from(c, 0);
  }
  return parts;
}

namespace {

// x IN (constants..., others...): TRUE if found; else NULL if x or any element is NULL; else FALSE.
template <typename T, typename Read>
ColumnVector in_list_kernel(const Expr& e, const Operand& x, const InSet<T>& set, bool list_has_null,
                            const std::vector<Operand>& others, size_t n, Read read) {
  ColumnVector out(DataType::boolean());
  out.ints.resize(n);
  std::vector<uint8_t> nulls(n, 0);
  bool any_null = false;
  const int64_t yes = e.negated ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    if (x.null_at(i)) {
      nulls[i] = 1;
      any_null = true;
      continue;
    }
    const T v = read(x, i);
    bool found = set.contains(v), unknown = list_has_null;
    for (size_t k = 0; k < others.size() && !found; ++k) {
      if (others[k].null_at(i)) {
        unknown = true;
      } else {
        found = read(others[k], i) == v;
      }
    }
    out.ints[i] = found ? yes : 1 - yes;
    if (!found && unknown) {
      nulls[i] = 1;
      any_null = true;
    }
  }
  if (any_null) out.nulls = std::move(nulls);
  return out;
}

}  // namespace

Operand eval_in_list(const Expr& e, const Context& ctx) {
  Operand x = eval_node(*e.children.at(0), ctx);
  InListParts parts = split_in_list(e);
  std::vector<Operand> others;
  bool all_constant = x.is_constant();
  for (const Expr* item : parts.others) {
    others.push_back(eval_node(*item, ctx));
    all_constant = all_constant && others.back().is_constant();
  }
  const size_t n = all_constant ? 1 : ctx.rows;
  ColumnVector out;
  switch (e.children[0]->type.physical()) {
    case PhysicalKind::Int64:
      out = in_list_kernel(e, x, make_in_set<int64_t>(parts.constants), parts.has_null, others, n,
                           [](const Operand& o, size_t i) { return ints_of(o)[o.at(i)]; });
      break;
    case PhysicalKind::Double:
      out = in_list_kernel(e, x, make_in_set<double>(parts.constants), parts.has_null, others, n,
                           [](const Operand& o, size_t i) { return dbls_of(o)[o.at(i)]; });
      break;
    case PhysicalKind::String:
      out = in_list_kernel(e, x, make_in_set<std::string_view>(parts.constants), parts.has_null, others, n,
                           [](const Operand& o, size_t i) { return std::string_view(strs_of(o)[o.at(i)]); });
      break;
  }
  return all_constant ? Operand::constant(std::move(out)) : Operand::owned(std::move(out));
}

}  // namespace hindsight::eval
