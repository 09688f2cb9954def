#pragma once
#include <optional>

#include "planner/common/types.hpp"
#include "planner/common/value.hpp"

namespace hindsight {

/// Where `v` sits on the number line of a column of type `column_type`, in the column's stored units:
/// INTEGER/BIGINT/DOUBLE columns take the plain number; DECIMAL(p,s) columns take value * 10^s (so 1.5 on a
/// DECIMAL(15,2) column is 150.0, whatever the literal's own scale); DATE columns take days since 1970-01-01
/// (from a DATE or a 'YYYY-MM-DD' string); BOOLEAN columns take 0/1. Any numeric Value (INTEGER, BIGINT,
/// DECIMAL with any scale, DOUBLE) is accepted by a numeric column. nullopt for NULL, VARCHAR columns and
/// values that cannot be compared with the column.
std::optional<double> numeric_position(const Value& v, DataType column_type);

}  // namespace hindsight
