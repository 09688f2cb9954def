#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace hindsight {

/// The DATE range, 0001-01-01 to 9999-12-31, in days since 1970-01-01. Every DATE value the engine makes lies
/// inside it: parsing refuses other years and date arithmetic leaving it is a DATA_ERROR.
constexpr int64_t kMinDateDays = -719162;
constexpr int64_t kMaxDateDays = 2932896;
inline bool date_in_range(int64_t days) { return days >= kMinDateDays && days <= kMaxDateDays; }

/// Days since 1970-01-01 of a proleptic Gregorian date.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d);

/// Parses exactly YYYY-MM-DD (validating month/day; year 0000 is outside the DATE range). Returns false on
/// malformed input.
bool parse_date(std::string_view text, int64_t& days);
/// YYYY-MM-DD
std::string format_date(int64_t days);
/// date + n days. False (out untouched) when `days` or the result is outside the DATE range; never overflows.
bool add_days(int64_t days, int64_t n, int64_t& out);
/// date + n months, the day clamped to the end of the target month (as SQL INTERVAL does). False (out untouched)
/// when `days` or the result is outside the DATE range; never overflows.
bool add_months(int64_t days, int64_t months, int64_t& out);

/// Decimal text -> scaled integer; accepts "-12.5", "3", ".5". Rounds half away from zero beyond `scale`.
bool parse_decimal(std::string_view text, int scale, int64_t& out);
/// Scaled integer -> text with exactly `scale` fraction digits.
std::string format_decimal(int64_t scaled, int scale);

}  // namespace hindsight
