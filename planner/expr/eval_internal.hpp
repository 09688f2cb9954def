#pragma once
// Internals shared by the evaluator's translation units (not part of the public API).
#include <cstdint>
#include <string>
#include <vector>

#include "planner/common/error.hpp"
#include "planner/expr/expr.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight::eval {

/// The columns ColumnRef indices read: those of a batch, or columns borrowed in place (a table's, read by a scan
/// without copying them). Borrowed columns may be longer than the rows evaluated (selections index into them).
struct Columns {
  const std::vector<ColumnVector>* batch = nullptr;
  const std::vector<const ColumnVector*>* borrowed = nullptr;

  size_t size() const { return batch ? batch->size() : borrowed->size(); }
  const ColumnVector& operator[](size_t i) const { return batch ? (*batch)[i] : *(*borrowed)[i]; }
};

/// The rows an expression is evaluated on: all rows of `input` (batch columns only), or the rows listed in `sel`.
struct Context {
  Columns input;
  const std::vector<uint32_t>* sel = nullptr;
  size_t rows = 0;
};

/// An evaluated child: a column borrowed from the input batch, an owned column, or a constant (one row that stands
/// for every row). Kernels index a constant at 0 and a vector at i.
class Operand {
 public:
  static Operand borrowed(const ColumnVector& c) {
    Operand o;
    o.ptr_ = &c;
    return o;
  }
  static Operand owned(ColumnVector c) {
    Operand o;
    o.owned_ = std::move(c);
    return o;
  }
  static Operand constant(ColumnVector one_row) {
    Operand o;
    o.owned_ = std::move(one_row);
    o.constant_ = true;
    return o;
  }

  const ColumnVector& col() const { return ptr_ ? *ptr_ : owned_; }
  bool is_constant() const { return constant_; }
  /// Constant NULL: every row is NULL.
  bool is_null_constant() const { return constant_ && col().is_null(0); }
  bool null_at(size_t i) const { return col().is_null(constant_ ? 0 : i); }
  size_t at(size_t i) const { return constant_ ? 0 : i; }
  bool has_nulls() const { return col().has_nulls(); }
  /// A full column of `rows` values (a constant is broadcast, a borrowed column copied).
  ColumnVector materialize(size_t rows) &&;

 private:
  const ColumnVector* ptr_ = nullptr;
  ColumnVector owned_;
  bool constant_ = false;
};

/// True when `err` is a user error (DATA_ERROR, NOT_SUPPORTED, TYPE_ERROR) without a position and `e` has one;
/// `positioned` is then the error to throw instead.
bool wants_position(const Expr& e, const Error& err);
Error positioned(const Expr& e, const Error& err);
/// Evaluates `e` over the rows of `ctx`; the result has ctx.rows rows unless it is a constant. A user error raised
/// below `e` without a position gets e's (Expr::loc).
Operand eval_node(const Expr& e, const Context& ctx);
/// Evaluates `e` on the subset `local` (positions within ctx's rows) and returns a result of local.size() rows.
Operand eval_subset(const Expr& e, const Context& ctx, const std::vector<uint32_t>& local);
/// Writes row k of `src` to row local[k] of `out` (values and NULL flags; `out.nulls` must be materialized).
void scatter(ColumnVector& out, const std::vector<uint32_t>& local, const Operand& src);

/// The column of `rows` rows and type `t` that evaluate() returns for an evaluated operand.
ColumnVector finish(Operand v, const DataType& t, size_t rows);
bool contains_column_ref(const Expr& e);

/// One-row column holding the constant of `e` converted to e.type.
ColumnVector constant_column(const Expr& e);

/// Kernels: `args` are vectors of n rows or constants; results have n rows. The dispatcher already returned NULL
/// for strict operators with a constant NULL argument.
ColumnVector eval_arithmetic(const Expr& e, const std::vector<Operand>& args, size_t n);
ColumnVector eval_compare(const Expr& e, const std::vector<Operand>& args, size_t n);
ColumnVector eval_string_call(const Expr& e, const std::vector<Operand>& args, size_t n);
ColumnVector eval_date_call(const Expr& e, const std::vector<Operand>& args, size_t n);
ColumnVector eval_round(const Expr& e, const std::vector<Operand>& args, size_t n);
ColumnVector eval_nullif(const Expr& e, const std::vector<Operand>& args, size_t n);
/// Converts n rows of `arg` (of type `from`) to `to`.
ColumnVector eval_cast(const DataType& from, const DataType& to, const Operand& arg, size_t n);

/// Node kinds that evaluate their own children (laziness, constant lists and patterns).
Operand eval_in_list(const Expr& e, const Context& ctx);
Operand eval_like(const Expr& e, const Context& ctx);

/// Union of the NULL masks of `args` over n rows; empty when no argument has NULLs.
std::vector<uint8_t> union_nulls(const std::vector<Operand>& args, size_t n);

/// Rescales a DECIMAL/integer value from `from_scale` to `to_scale` (rounding half away from zero when reducing);
/// returns false on int64 overflow.
bool rescale(int64_t v, int from_scale, int to_scale, int64_t& out);
/// An int64-backed operand brought from scale `from` to scale `to` (DATA_ERROR on overflow).
Operand rescale_operand(const Operand& a, int from, int to, size_t n);
/// Scale of an int64-backed type (0 unless DECIMAL).
inline int scale_of(const DataType& t) { return t.id == TypeId::Decimal ? t.scale : 0; }

[[noreturn]] void throw_data_error(const std::string& message);
[[noreturn]] inline void throw_overflow() { throw_data_error("numeric overflow"); }
[[noreturn]] inline void throw_division_by_zero() { throw_data_error("division by zero"); }

/// The ints/dbls/strs of a column as a raw pointer (constants are indexed at 0 through Operand::at).
inline const int64_t* ints_of(const Operand& o) { return o.col().ints.data(); }
inline const double* dbls_of(const Operand& o) { return o.col().dbls.data(); }
inline const std::string* strs_of(const Operand& o) { return o.col().strs.data(); }

/// Calls f(i, a, b) for i in [0, n) with a and b read from `l` and `r`; one tight loop per constant/vector mix.
template <typename L, typename R, typename F>
inline void binary_loop(const L* l, bool lc, const R* r, bool rc, size_t n, F&& f) {
  if (!lc && !rc) {
    for (size_t i = 0; i < n; ++i) f(i, l[i], r[i]);
  } else if (lc && !rc) {
    const L& a = l[0];
    for (size_t i = 0; i < n; ++i) f(i, a, r[i]);
  } else if (!lc && rc) {
    const R& b = r[0];
    for (size_t i = 0; i < n; ++i) f(i, l[i], b);
  } else {
    for (size_t i = 0; i < n; ++i) f(i, l[0], r[0]);
  }
}

}  // namespace hindsight::eval
