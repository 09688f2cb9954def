#pragma once
#include "planner/expr/expr.hpp"

namespace hindsight {

/// Brings an expression to the canonical shape signatures are computed from, so that equal
/// computations written differently sign alike: constants folded; AND/OR flattened; comparisons
/// turned so only =, <>, <, <= remain (a > b becomes b < a);
/// a one-element IN becomes = (NOT IN: <>); A AND (A OR B) absorbed to A. Operand order of
/// commutative operators and the order and duplicates of AND/OR operands and IN lists are left
/// to the encoder, which writes them as sorted sets.
ExprPtr normalize_for_signature(const Expr& e);

/// The same, for an expression the caller owns: normalized in place, no copy.
ExprPtr normalize_for_signature(ExprPtr e);

/// True if signing `e` as it is gives the bytes of signing normalize_for_signature(e), so the
/// signer may read `e` itself and skip the copy: nothing to fold, flatten or absorb, and either the
/// normalizer returns a structurally identical copy or the only difference is a `>` / `>=` it would
/// turn around, which the signer writes mirrored itself. Conservative: false means "maybe not"
/// (AND/OR are never reported as normal).
bool is_normalized_for_signature(const Expr& e);

}  // namespace hindsight
