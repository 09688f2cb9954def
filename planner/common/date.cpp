#include "planner/common/date.hpp"

#include <cstdio>

#include "planner/common/types.hpp"

namespace hindsight {

// Howard Hinnant's public-domain civil calendar algorithms (the well-known formulas).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static unsigned days_in_month(int64_t y, unsigned m) {
  static const unsigned dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : dm[m - 1];
}

bool parse_date(std::string_view t, int64_t& days) {
  if (t.size() != 10 || t[4] != '-' || t[7] != '-') return false;
  auto digits = [&](size_t from, size_t n, int64_t& v) {
    v = 0;
    for (size_t i = from; i < from + n; ++i) {
      if (t[i] < '0' || t[i] > '9') return false;
      v = v * 10 + (t[i] - '0');
    }
    return true;
  };
  int64_t y, m, d;
  if (!digits(0, 4, y) || !digits(5, 2, m) || !digits(8, 2, d)) return false;
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > days_in_month(y, static_cast<unsigned>(m))) return false;
  days = days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  return true;
}

std::string format_date(int64_t days) {
  int64_t y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

bool add_days(int64_t days, int64_t n, int64_t& out) {
  // With `days` in range, both bounds below are small: no overflow whatever n is.
  if (!date_in_range(days) || n > kMaxDateDays - days || n < kMinDateDays - days) return false;
  out = days + n;
  return true;
}

bool add_months(int64_t days, int64_t months, int64_t& out) {
  if (!date_in_range(days)) return false;
  int64_t y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  int64_t total;
  if (__builtin_add_overflow(y * 12 + (m - 1), months, &total)) return false;
  const int64_t ny = total >= 0 ? total / 12 : (total - 11) / 12;
  if (ny < 1 || ny > 9999) return false;
  const unsigned nm = static_cast<unsigned>(total - ny * 12) + 1;
  const unsigned nd = d > days_in_month(ny, nm) ? days_in_month(ny, nm) : d;
  out = days_from_civil(ny, nm, nd);
  return true;
}

bool parse_decimal(std::string_view t, int scale, int64_t& out) {
  size_t i = 0;
  bool neg = false;
  if (i < t.size() && (t[i] == '-' || t[i] == '+')) neg = t[i++] == '-';
  int64_t whole = 0, frac = 0;
  int frac_digits = 0;
  bool any = false, round_up = false;
  for (; i < t.size() && t[i] != '.'; ++i) {
    if (t[i] < '0' || t[i] > '9') return false;
    if (whole > 922337203685477LL) return false;
    whole = whole * 10 + (t[i] - '0');
    any = true;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    for (; i < t.size(); ++i) {
      if (t[i] < '0' || t[i] > '9') return false;
      any = true;
      if (frac_digits < scale) {
        frac = frac * 10 + (t[i] - '0');
        ++frac_digits;
      } else if (frac_digits == scale) {
        round_up = t[i] >= '5';
        ++frac_digits;
      }
    }
  }
  if (!any) return false;
  int kept = frac_digits < scale ? frac_digits : scale;
  int64_t v = whole * pow10_i64(scale) + frac * pow10_i64(scale - kept);
  if (round_up) ++v;
  out = neg ? -v : v;
  return true;
}

std::string format_decimal(int64_t scaled, int scale) {
  bool neg = scaled < 0;
  uint64_t a = neg ? static_cast<uint64_t>(-(scaled + 1)) + 1 : static_cast<uint64_t>(scaled);
  if (scale == 0) return (neg ? "-" : "") + std::to_string(a);
  uint64_t p = static_cast<uint64_t>(pow10_i64(scale));
  std::string frac = std::to_string(a % p);
  frac.insert(0, static_cast<size_t>(scale) - frac.size(), '0');
  return (neg ? "-" : "") + std::to_string(a / p) + "." + frac;
}

}  // namespace hindsight
