#pragma once
#include "planner/common/types.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight {

/// One aggregate of a HashAggregateOp.
struct AggregateSpec {
  AggKind kind = AggKind::CountStar;
  int arg = -1;         ///< input column (Single/Partial); -1 for COUNT(*). Ignored in Final mode.
  bool distinct = false;  ///< COUNT(DISTINCT x), SUM(DISTINCT x)...: Single mode only
  DataType result_type;   ///< COUNT: BIGINT; SUM: BIGINT / DECIMAL(p,s) / DOUBLE; AVG: DOUBLE; MIN/MAX: the arg type
};

/// Single: raw rows -> final values. Partial: raw rows -> partial states (see HashAggregateOp for the layout).
/// Final: partial states (gathered or repartitioned on the keys) -> final values.
enum class AggregateMode { Single, Partial, Final };

inline const char* aggregate_mode_name(AggregateMode m) {
  switch (m) {
    case AggregateMode::Single: return "SINGLE";
    case AggregateMode::Partial: return "PARTIAL";
    case AggregateMode::Final: return "FINAL";
  }
  return "?";
}

}  // namespace hindsight
