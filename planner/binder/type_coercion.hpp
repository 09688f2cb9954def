#pragma once
#include <optional>

#include "planner/common/types.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight {

/// The type both operands of a comparison (or the branches of CASE/COALESCE/IN) are converted to,
/// or nullopt when there is none (a TYPE_ERROR for the caller).
/// int < bigint < decimal < double; DATE with VARCHAR -> DATE (string literals compared with dates);
/// NULL with anything -> that thing.
std::optional<DataType> common_type(DataType a, DataType b);

/// Wraps `e` in a cast to `t` unless it already has that type; constants are converted in place.
ExprPtr coerce(ExprPtr e, DataType t);

/// Result type of an arithmetic operator on two (already numeric) types, after the operands are
/// coerced to `operand_type` (set by the function). nullopt when the operands are not numeric.
/// Add/Sub: common type. Mul: integers -> BIGINT, DECIMAL scales add (precision capped at 18).
/// Div: integers -> BIGINT (truncating), otherwise DOUBLE. Mod: integers only.
std::optional<DataType> arithmetic_type(ScalarOp op, DataType a, DataType b, DataType& left_operand,
                                        DataType& right_operand);

/// Result type of an aggregate over `arg` (COUNT -> BIGINT, SUM int -> BIGINT, SUM decimal(p,s) ->
/// DECIMAL(18,s), AVG -> DOUBLE, MIN/MAX -> arg). nullopt when the argument type is not allowed.
std::optional<DataType> aggregate_type(AggKind kind, DataType arg);

}  // namespace hindsight
