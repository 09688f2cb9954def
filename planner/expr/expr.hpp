#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "planner/common/types.hpp"
#include "planner/common/value.hpp"

namespace hindsight {

/// A column produced somewhere in a plan, unique within one query. Logical operators name their
/// outputs by ColumnId; the exec builder resolves them to positions.
using ColumnId = uint32_t;
constexpr ColumnId kInvalidColumn = UINT32_MAX;

enum class ExprKind : uint8_t {
  ColumnRef,  ///< column_id (+ index once resolved against an input layout)
  Constant,   ///< value
  Call,       ///< op applied to children
  Case,       ///< children: [when1, then1, when2, then2, ..., else?]; has_else says whether the last child is ELSE
  Cast,       ///< children[0] converted to type
  InList,     ///< children[0] IN (children[1..]); negated for NOT IN
  Like,       ///< children[0] LIKE children[1] (pattern, usually constant); negated for NOT LIKE
  IsNull,     ///< children[0] IS NULL; negated for IS NOT NULL
  Not,        ///< NOT children[0]
  And,        ///< n-ary, three-valued
  Or,         ///< n-ary, three-valued
};

/// Scalar operators of ExprKind::Call. The binder inserts casts so that operands of arithmetic and
/// comparisons already have one common type: the evaluator never coerces.
/// Arithmetic on DECIMAL operates on the scaled int64 directly: Add/Sub need equal scales (the binder
/// rescales), Mul's result scale is the sum of the operand scales, Div on decimals is done in DOUBLE
/// (the binder casts). Integer Div truncates toward zero; division by zero is a DATA_ERROR.
enum class ScalarOp : uint8_t {
  Add, Sub, Mul, Div, Mod, Neg,
  Eq, Ne, Lt, Le, Gt, Ge,
  Concat,          ///< varchar || varchar
  Substring,       ///< (str, start[, length]) 1-based, as SQL SUBSTRING(str FROM start FOR length)
  ExtractYear, ExtractMonth, ExtractDay,  ///< (date) -> INTEGER
  DateAddDays,     ///< (date, integer days) -> date
  DateAddMonths,   ///< (date, integer months) -> date; day clamped to the month's end
  DateDiffDays,    ///< (date, date) -> integer
  Coalesce,        ///< n-ary, first non-NULL
  NullIf,          ///< (a, b)
  Abs, Upper, Lower, Length, Round,  ///< Round: (x[, digits])
};

const char* scalar_op_name(ScalarOp op);

/// True for =, <>, <, <=, >, >=.
inline bool is_comparison_op(ScalarOp op) { return op >= ScalarOp::Eq && op <= ScalarOp::Ge; }

/// The comparison with its operands swapped: a < b is b > a (= and <> stay).
inline ScalarOp mirror_comparison(ScalarOp op) {
  switch (op) {
    case ScalarOp::Lt: return ScalarOp::Gt;
    case ScalarOp::Le: return ScalarOp::Ge;
    case ScalarOp::Gt: return ScalarOp::Lt;
    case ScalarOp::Ge: return ScalarOp::Le;
    default: return op;
  }
}

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// Where an expression was written: the 1-based line:col of its first character in the SQL text (line 0: not
/// written by the user, e.g. a cast the binder inserted or a node a rewrite made). A runtime error (division by
/// zero, overflow, a failed cast) is reported at the nearest enclosing expression that has one.
struct SourceLoc {
  int line = 0;
  int col = 0;
  bool valid() const { return line > 0; }
};

/// A bound, typed expression tree.
struct Expr {
  ExprKind kind;
  DataType type;
  std::vector<ExprPtr> children;

  ColumnId column_id = kInvalidColumn;  ///< ColumnRef
  int index = -1;                       ///< ColumnRef: position in the input batch, set by resolution
  Value value;                          ///< Constant
  ScalarOp op = ScalarOp::Add;          ///< Call
  bool negated = false;                 ///< InList, Like, IsNull
  bool has_else = false;                ///< Case
  SourceLoc loc;                        ///< not part of equals() or of signatures

  static ExprPtr column(ColumnId id, DataType t, int index = -1);
  static ExprPtr constant(Value v);
  static ExprPtr call(ScalarOp op, DataType t, std::vector<ExprPtr> args);
  static ExprPtr cast(ExprPtr child, DataType t);
  static ExprPtr make(ExprKind kind, DataType t, std::vector<ExprPtr> children);

  ExprPtr clone() const;
  bool is_constant() const { return kind == ExprKind::Constant; }
  /// Structural equality (same kind, type, op, flags, constants, column ids; index ignored).
  bool equals(const Expr& o) const;
  /// Appends every ColumnId this expression reads.
  void collect_columns(std::vector<ColumnId>& out) const;
  /// Readable SQL-like text; column names come from `name_of` when given, else "#<id>".
  std::string to_string(const std::function<std::string(ColumnId)>* name_of = nullptr) const;
};

/// Aggregate functions of a GROUP BY.
enum class AggKind : uint8_t { CountStar, Count, Sum, Avg, Min, Max };
const char* agg_kind_name(AggKind k);

}  // namespace hindsight
