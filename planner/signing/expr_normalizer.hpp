#pragma once
#include "planner/expr/expr.hpp"

namespace hindsight {

/// Brings an expression to the canonical shape signatures are computed from, so that equal
/// computations written differently sign alike: constants folded; AND/OR flattened; comparisons
/// turned so a constant is on the right and only =, <>, <, <= remain (a > b becomes b < a);
/// a one-element IN becomes = (NOT IN: <>); A AND (A OR B) absorbed to A. Operand order of
/// commutative operators and the order and duplicates of AND/OR operands and IN lists are left
/// to the encoder, which writes them as sorted sets.
ExprPtr normalize_for_signature(const Expr& e);

/// The same, for an expression the caller owns: normalized in place, no copy.
ExprPtr normalize_for_signature(ExprPtr e);

/// True if normalize_for_signature(e) would return a structurally identical copy of `e` (nothing
/// to fold, flip, flatten or absorb), so signing may read `e` itself and skip the copy. Conservative:
/// false means "maybe not" (AND/OR are never reported as normal).
bool is_normalized_for_signature(const Expr& e);

}  // namespace hindsight
