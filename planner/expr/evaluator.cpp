#include "planner/expr/evaluator.hpp"

#include <numeric>

#include "planner/common/error.hpp"
#include "planner/common/stack_guard.hpp"
#include "planner/expr/eval_internal.hpp"

namespace hindsight {
namespace eval {

void throw_data_error(const std::string& message) { throw Error(ErrorCode::DATA_ERROR, message); }

ColumnVector Operand::materialize(size_t rows) && {
  if (!constant_) {
    if (ptr_) return *ptr_;
    return std::move(owned_);
  }
  ColumnVector out(owned_.type);
  switch (owned_.type.physical()) {
    case PhysicalKind::Int64:
      out.ints.assign(rows, owned_.ints[0]);
      break;
    case PhysicalKind::Double:
      out.dbls.assign(rows, owned_.dbls[0]);
      break;
    case PhysicalKind::String:
      out.strs.assign(rows, owned_.strs[0]);
      break;
  }
  if (owned_.is_null(0)) out.nulls.assign(rows, 1);
  return out;
}

std::vector<uint8_t> union_nulls(const std::vector<Operand>& args, size_t n) {
  std::vector<uint8_t> out;
  for (auto& a : args) {
    if (!a.has_nulls()) continue;
    if (a.is_constant()) {
      if (a.null_at(0)) {
        out.assign(n, 1);
        return out;
      }
      continue;
    }
    const auto& m = a.col().nulls;
    if (out.empty()) {
      out.assign(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(n));
    } else {
      for (size_t i = 0; i < n; ++i) out[i] |= m[i];
    }
  }
  return out;
}

static __int128 pow10_128(int n) {
  __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

bool rescale(int64_t v, int from_scale, int to_scale, int64_t& out) {
  if (to_scale == from_scale) {
    out = v;
    return true;
  }
  if (to_scale > from_scale) {
    int d = to_scale - from_scale;
    if (d > 18) {
      out = 0;
      return v == 0;
    }
    return !__builtin_mul_overflow(v, pow10_i64(d), &out);
  }
  __int128 p = pow10_128(from_scale - to_scale);
  __int128 q = v / p, r = v % p;
  if (2 * (r < 0 ? -r : r) >= p) q += v < 0 ? -1 : 1;  // half away from zero
  out = static_cast<int64_t>(q);
  return true;
}

Operand rescale_operand(const Operand& a, int from, int to, size_t n) {
  const size_t m = a.is_constant() ? 1 : n;
  ColumnVector c(a.col().type);
  c.ints.resize(m);
  if (a.has_nulls()) c.nulls.assign(a.col().nulls.begin(), a.col().nulls.begin() + static_cast<std::ptrdiff_t>(m));
  for (size_t i = 0; i < m; ++i)
    if (!a.null_at(i) && !rescale(a.col().ints[i], from, to, c.ints[i])) throw_overflow();
  return a.is_constant() ? Operand::constant(std::move(c)) : Operand::owned(std::move(c));
}

ColumnVector constant_column(const Expr& e) {
  const Value& v = e.value;
  ColumnVector c(e.type);
  if (v.is_null) {
    c.append_null();
    return c;
  }
  if (v.type == e.type) {
    c.append_value(v);
    return c;
  }
  // A literal whose Value type differs from the node type (e.g. an INTEGER literal typed BIGINT): convert it.
  ColumnVector raw(v.type);
  raw.append_value(v);
  return eval_cast(v.type, e.type, Operand::constant(std::move(raw)), 1);
}

Operand eval_subset(const Expr& e, const Context& ctx, const std::vector<uint32_t>& local) {
  std::vector<uint32_t> sel(local.size());
  if (ctx.sel) {
    for (size_t k = 0; k < local.size(); ++k) sel[k] = (*ctx.sel)[local[k]];
  } else {
    sel = local;
  }
  Context sub{ctx.input, &sel, sel.size()};
  return eval_node(e, sub);
}

void scatter(ColumnVector& out, const std::vector<uint32_t>& local, const Operand& src) {
  const ColumnVector& s = src.col();
  if (src.is_null_constant()) {
    for (uint32_t row : local) out.nulls[row] = 1;
    return;
  }
  HS_ASSERT(s.type.physical() == out.type.physical(), "CASE/COALESCE branch of another physical type");
  const bool c = src.is_constant();
  switch (out.type.physical()) {
    case PhysicalKind::Int64:
      for (size_t k = 0; k < local.size(); ++k) out.ints[local[k]] = s.ints[c ? 0 : k];
      break;
    case PhysicalKind::Double:
      for (size_t k = 0; k < local.size(); ++k) out.dbls[local[k]] = s.dbls[c ? 0 : k];
      break;
    case PhysicalKind::String:
      for (size_t k = 0; k < local.size(); ++k) out.strs[local[k]] = s.strs[c ? 0 : k];
      break;
  }
  if (!s.has_nulls()) {
    for (uint32_t row : local) out.nulls[row] = 0;
  } else {
    for (size_t k = 0; k < local.size(); ++k) out.nulls[local[k]] = s.nulls[c ? 0 : k];
  }
}

namespace {

Operand null_constant(const DataType& t) {
  ColumnVector c(t);
  c.append_null();
  return Operand::constant(std::move(c));
}

std::vector<uint32_t> all_rows(size_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

// Evaluates on `rows` (positions within ctx), using the context itself when `rows` covers all of it.
Operand eval_on(const Expr& e, const Context& ctx, const std::vector<uint32_t>& rows) {
  return rows.size() == ctx.rows ? eval_node(e, ctx) : eval_subset(e, ctx, rows);
}

// An output column of n NULLs to be filled by scatter().
ColumnVector null_column(const DataType& t, size_t n) {
  ColumnVector out(t);
  out.resize(n);
  out.nulls.assign(n, 1);
  return out;
}

void drop_empty_mask(ColumnVector& c) {
  for (uint8_t b : c.nulls)
    if (b) return;
  c.nulls.clear();
}

bool truthy(const Operand& v, size_t k) { return !v.null_at(k) && v.col().ints[v.at(k)] != 0; }

Operand eval_call(const Expr& e, const Context& ctx);

// COALESCE: each argument only on the rows that are still NULL.
Operand eval_coalesce(const Expr& e, const Context& ctx) {
  ColumnVector out = null_column(e.type, ctx.rows);
  std::vector<uint32_t> pending = all_rows(ctx.rows);
  for (auto& child : e.children) {
    if (pending.empty()) break;
    Operand v = eval_on(*child, ctx, pending);
    if (pending.size() == ctx.rows && !v.has_nulls() && v.col().type.physical() == e.type.physical()) return v;
    scatter(out, pending, v);
    size_t kept = 0;
    for (size_t k = 0; k < pending.size(); ++k)
      if (v.null_at(k)) pending[kept++] = pending[k];
    pending.resize(kept);
  }
  drop_empty_mask(out);
  return Operand::owned(std::move(out));
}

// CASE: each WHEN on the rows no earlier WHEN took, each THEN only on the rows its WHEN selected, so that a
// branch that would fail (division by zero) on rows it does not produce never runs on them.
Operand eval_case(const Expr& e, const Context& ctx) {
  const size_t pairs = (e.children.size() - (e.has_else ? 1 : 0)) / 2;
  ColumnVector out = null_column(e.type, ctx.rows);
  std::vector<uint32_t> remaining = all_rows(ctx.rows), hit, rest;
  for (size_t p = 0; p < pairs && !remaining.empty(); ++p) {
    Operand cond = eval_on(*e.children[2 * p], ctx, remaining);
    hit.clear();
    rest.clear();
    for (size_t k = 0; k < remaining.size(); ++k) (truthy(cond, k) ? hit : rest).push_back(remaining[k]);
    if (!hit.empty()) scatter(out, hit, eval_on(*e.children[2 * p + 1], ctx, hit));
    remaining.swap(rest);
  }
  if (e.has_else && !remaining.empty()) scatter(out, remaining, eval_on(*e.children.back(), ctx, remaining));
  drop_empty_mask(out);
  return Operand::owned(std::move(out));
}

// AND / OR with three-valued logic. Later operands run only on the rows not yet decided, which both saves work and
// keeps `x <> 0 AND 10 / x > 1` from dividing by zero.
Operand eval_logic(const Expr& e, const Context& ctx) {
  const int64_t decisive = e.kind == ExprKind::And ? 0 : 1;  // FALSE decides an AND, TRUE an OR
  const size_t n = ctx.rows;
  ColumnVector out(DataType::boolean());
  out.ints.assign(n, 1 - decisive);
  std::vector<uint8_t> nulls(n, 0);
  std::vector<uint32_t> active = all_rows(n);
  for (auto& child : e.children) {
    if (active.empty()) break;
    Operand v = eval_on(*child, ctx, active);
    const int64_t* vals = v.col().ints.data();
    size_t kept = 0;
    for (size_t k = 0; k < active.size(); ++k) {
      uint32_t row = active[k];
      if (v.null_at(k)) {
        nulls[row] = 1;
        active[kept++] = row;
      } else if ((vals[v.at(k)] != 0) == (decisive != 0)) {
        out.ints[row] = decisive;
        nulls[row] = 0;
      } else {
        active[kept++] = row;
      }
    }
    active.resize(kept);
  }
  out.nulls = std::move(nulls);
  drop_empty_mask(out);
  return Operand::owned(std::move(out));
}

Operand eval_not(const Expr& e, const Context& ctx) {
  Operand v = eval_node(*e.children.at(0), ctx);
  const size_t n = v.is_constant() ? 1 : ctx.rows;
  ColumnVector out(DataType::boolean());
  out.ints.resize(n);
  const int64_t* in = v.col().ints.data();
  for (size_t i = 0; i < n; ++i) out.ints[i] = in[i] == 0;
  if (v.has_nulls()) out.nulls.assign(v.col().nulls.begin(), v.col().nulls.begin() + static_cast<std::ptrdiff_t>(n));
  return v.is_constant() ? Operand::constant(std::move(out)) : Operand::owned(std::move(out));
}

Operand eval_is_null(const Expr& e, const Context& ctx) {
  Operand v = eval_node(*e.children.at(0), ctx);
  const size_t n = v.is_constant() ? 1 : ctx.rows;
  ColumnVector out(DataType::boolean());
  out.ints.resize(n);
  for (size_t i = 0; i < n; ++i) out.ints[i] = v.null_at(i) != e.negated;
  return v.is_constant() ? Operand::constant(std::move(out)) : Operand::owned(std::move(out));
}

Operand eval_cast_node(const Expr& e, const Context& ctx) {
  const Expr& child = *e.children.at(0);
  Operand v = eval_node(child, ctx);
  if (v.is_null_constant() || child.type.id == TypeId::Null) return null_constant(e.type);
  const size_t n = v.is_constant() ? 1 : ctx.rows;
  ColumnVector out = eval_cast(child.type, e.type, v, n);
  return v.is_constant() ? Operand::constant(std::move(out)) : Operand::owned(std::move(out));
}

ColumnVector dispatch_call(const Expr& e, const std::vector<Operand>& args, size_t n) {
  switch (e.op) {
    case ScalarOp::Add:
    case ScalarOp::Sub:
    case ScalarOp::Mul:
    case ScalarOp::Div:
    case ScalarOp::Mod:
    case ScalarOp::Neg:
    case ScalarOp::Abs:
      return eval_arithmetic(e, args, n);
    case ScalarOp::Eq:
    case ScalarOp::Ne:
    case ScalarOp::Lt:
    case ScalarOp::Le:
    case ScalarOp::Gt:
    case ScalarOp::Ge:
      return eval_compare(e, args, n);
    case ScalarOp::Concat:
    case ScalarOp::Substring:
    case ScalarOp::Upper:
    case ScalarOp::Lower:
    case ScalarOp::Length:
      return eval_string_call(e, args, n);
    case ScalarOp::ExtractYear:
    case ScalarOp::ExtractMonth:
    case ScalarOp::ExtractDay:
    case ScalarOp::DateAddDays:
    case ScalarOp::DateAddMonths:
    case ScalarOp::DateDiffDays:
      return eval_date_call(e, args, n);
    case ScalarOp::NullIf:
      return eval_nullif(e, args, n);
    case ScalarOp::Round:
      return eval_round(e, args, n);
    case ScalarOp::Coalesce:
      break;
  }
  throw_internal(__FILE__, __LINE__, std::string("unhandled scalar op ") + scalar_op_name(e.op));
}

// One call whose first operand is evaluated already.
Operand apply_call(const Expr& e, Operand first, const Context& ctx) {
  std::vector<Operand> args;
  args.reserve(e.children.size());
  args.push_back(std::move(first));
  bool all_constant = args.back().is_constant();
  for (size_t i = 1; i < e.children.size(); ++i) {
    args.push_back(eval_node(*e.children[i], ctx));
    all_constant = all_constant && args.back().is_constant();
  }
  // Every operator but NULLIF is strict: a constant NULL argument makes every row NULL.
  if (e.op != ScalarOp::NullIf)
    for (auto& a : args)
      if (a.is_null_constant()) return null_constant(e.type);
  if (all_constant) return Operand::constant(dispatch_call(e, args, 1));
  return Operand::owned(dispatch_call(e, args, ctx.rows));
}

bool chains_through_first_operand(const Expr& e) {
  return e.kind == ExprKind::Call && e.op != ScalarOp::Coalesce && !e.children.empty();
}

Operand eval_call(const Expr& e, const Context& ctx) {
  if (e.op == ScalarOp::Coalesce) return eval_coalesce(e, ctx);
  if (e.children.empty()) return Operand::constant(dispatch_call(e, {}, 1));
  if (!chains_through_first_operand(*e.children[0])) return apply_call(e, eval_node(*e.children[0], ctx), ctx);
  // Calls nested through their first operand (a + b + c ..., a chain as deep as it is long) are evaluated
  // bottom-up by a loop; each keeps its own position for errors (eval_node does that for `e` itself).
  std::vector<const Expr*> spine{&e};
  while (chains_through_first_operand(*spine.back()->children[0])) spine.push_back(spine.back()->children[0].get());
  Operand acc = eval_node(*spine.back()->children[0], ctx);
  for (size_t k = spine.size(); k-- > 1;) {
    const Expr& node = *spine[k];
    try {
      acc = apply_call(node, std::move(acc), ctx);
    } catch (const Error& err) {
      if (!wants_position(node, err)) throw;
      throw positioned(node, err);
    }
  }
  return apply_call(e, std::move(acc), ctx);
}

bool has_column_ref(const Expr& e) {
  if (e.kind == ExprKind::ColumnRef) return true;
  for (auto& c : e.children)
    if (has_column_ref(*c)) return true;
  return false;
}

Operand eval_dispatch(const Expr& e, const Context& ctx) {
  if (ctx.rows == 0) return Operand::owned(ColumnVector(e.type));
  if (!e.children.empty()) check_stack_depth("evaluation");
  switch (e.kind) {
    case ExprKind::ColumnRef: {
      HS_ASSERT(e.index >= 0 && static_cast<size_t>(e.index) < ctx.input.size(),
                "unresolved column reference #" + std::to_string(e.column_id));
      const ColumnVector& c = ctx.input[static_cast<size_t>(e.index)];
      if (!ctx.sel) {
        HS_ASSERT(ctx.input.batch != nullptr, "columns read in place are evaluated through a selection");
        return Operand::borrowed(c);
      }
      ColumnVector out(c.type);
      out.append_selected(c, *ctx.sel);
      return Operand::owned(std::move(out));
    }
    case ExprKind::Constant:
      return Operand::constant(constant_column(e));
    case ExprKind::Call:
      return eval_call(e, ctx);
    case ExprKind::Case:
      return eval_case(e, ctx);
    case ExprKind::Cast:
      return eval_cast_node(e, ctx);
    case ExprKind::InList:
      return eval_in_list(e, ctx);
    case ExprKind::Like:
      return eval_like(e, ctx);
    case ExprKind::IsNull:
      return eval_is_null(e, ctx);
    case ExprKind::Not:
      return eval_not(e, ctx);
    case ExprKind::And:
    case ExprKind::Or:
      return eval_logic(e, ctx);
  }
  throw_internal(__FILE__, __LINE__, "unhandled expression kind");
}

}  // namespace

bool wants_position(const Expr& e, const Error& err) {
  const bool user_error = err.code() == ErrorCode::DATA_ERROR || err.code() == ErrorCode::NOT_SUPPORTED ||
                          err.code() == ErrorCode::TYPE_ERROR;
  return user_error && !err.pos().valid() && e.loc.valid();
}

Error positioned(const Expr& e, const Error& err) {
  return err.with_position(SourcePos{"", e.loc.line, e.loc.col}, {});
}

// Once per node and batch, never per row: the try costs nothing unless something throws.
Operand eval_node(const Expr& e, const Context& ctx) {
  if (!e.loc.valid()) return eval_dispatch(e, ctx);
  try {
    return eval_dispatch(e, ctx);
  } catch (const Error& err) {
    if (!wants_position(e, err)) throw;
    throw positioned(e, err);
  }
}

/// Turns an evaluated operand into the column of `rows` rows and type `t` that callers receive.
ColumnVector finish(Operand v, const DataType& t, size_t rows) {
  if (v.is_null_constant() && v.col().type.physical() != t.physical()) {
    ColumnVector out(t);
    out.resize(rows);
    out.nulls.assign(rows, 1);
    return out;
  }
  ColumnVector out = std::move(v).materialize(rows);
  HS_ASSERT(out.type.physical() == t.physical(),
            "evaluated column has type " + out.type.to_string() + ", expression has type " + t.to_string());
  out.type = t;
  return out;
}

bool contains_column_ref(const Expr& e) { return has_column_ref(e); }

}  // namespace eval

ColumnVector evaluate(const Expr& e, const Batch& input) {
  eval::Context ctx{eval::Columns{&input.columns, nullptr}, nullptr, input.rows};
  return eval::finish(eval::eval_node(e, ctx), e.type, input.rows);
}

Value evaluate_constant(const Expr& e) {
  if (eval::contains_column_ref(e)) throw_internal(__FILE__, __LINE__, "evaluate_constant on " + e.to_string());
  Batch one;
  one.rows = 1;
  return evaluate(e, one).get(0);
}

}  // namespace hindsight
