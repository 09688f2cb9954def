#pragma once
#include <cstdint>
#include <string_view>

#include "planner/common/types.hpp"

namespace hindsight {

/// Text -> int64-backed value of `type` (BOOLEAN true/false/1/0, INTEGER and BIGINT with range checks,
/// DECIMAL(p,s) scaled by 10^s and limited to p digits, DATE as YYYY-MM-DD). Returns false if malformed.
bool parse_int64_field(const DataType& type, std::string_view text, int64_t& out);

/// Text -> DOUBLE (decimal or exponent notation, optional sign). Returns false if malformed.
bool parse_double_field(std::string_view text, double& out);

}  // namespace hindsight
