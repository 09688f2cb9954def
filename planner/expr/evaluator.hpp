#pragma once
#include <cstdint>
#include <vector>

#include "planner/common/value.hpp"
#include "planner/expr/expr.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// Vectorized evaluation of bound expressions over a batch. ColumnRef nodes must be resolved
/// (Expr::index is the position in `input.columns`). SQL three-valued logic throughout: NULL in,
/// NULL out, except IS NULL, COALESCE, CASE and the short-circuits of AND/OR (FALSE AND NULL =
/// FALSE, TRUE OR NULL = TRUE). Errors (division by zero, a bad cast) throw DATA_ERROR.

/// Returns a column of input.rows values of type e.type.
ColumnVector evaluate(const Expr& e, const Batch& input);

/// Indices of the rows of `input` for which `predicate` is TRUE (not FALSE, not NULL), ascending.
void evaluate_filter(const Expr& predicate, const Batch& input, std::vector<uint32_t>& selection);

/// The same over rows [begin, end) of columns read in place (ColumnRef index i reads *columns[i], which holds at
/// least `end` rows): the indices of the rows in that range for which `predicate` is TRUE, ascending. Nothing is
/// copied for the conjuncts that compare, range-check, IN-list or LIKE-match a column; other conjuncts copy the
/// columns they read for the rows still selected. What a filtered scan uses, so that it copies only the rows kept.
void evaluate_filter(const Expr& predicate, const std::vector<const ColumnVector*>& columns, size_t begin, size_t end,
                     std::vector<uint32_t>& selection);

/// Evaluates an expression without column references (throws INTERNAL if it has one).
Value evaluate_constant(const Expr& e);

}  // namespace hindsight
