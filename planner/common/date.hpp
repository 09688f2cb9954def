#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace hindsight {

/// Days since 1970-01-01 of a proleptic Gregorian date.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d);

/// Parses exactly YYYY-MM-DD (validating month/day). Returns false on malformed input.
bool parse_date(std::string_view text, int64_t& days);
/// YYYY-MM-DD
std::string format_date(int64_t days);
/// Adds months, clamping the day to the end of the target month (as SQL INTERVAL does).
int64_t add_months(int64_t days, int64_t months);

/// Decimal text -> scaled integer; accepts "-12.5", "3", ".5". Rounds half away from zero beyond `scale`.
bool parse_decimal(std::string_view text, int scale, int64_t& out);
/// Scaled integer -> text with exactly `scale` fraction digits.
std::string format_decimal(int64_t scaled, int scale);

}  // namespace hindsight
