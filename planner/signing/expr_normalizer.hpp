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

}  // namespace hindsight
