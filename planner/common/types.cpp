#include "planner/common/types.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace hindsight {

std::string DataType::to_string() const {
  switch (id) {
    case TypeId::Null: return "NULL";
    case TypeId::Boolean: return "BOOLEAN";
    case TypeId::Integer: return "INTEGER";
    case TypeId::BigInt: return "BIGINT";
    case TypeId::Double: return "DOUBLE";
    case TypeId::Decimal: return fmt::format("DECIMAL({},{})", precision, scale);
    case TypeId::Varchar: return "VARCHAR";
    case TypeId::Date: return "DATE";
  }
  return "?";
}

bool parse_type_name(const std::string& raw, DataType& out) {
  std::string name;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string base = name, args;
  if (auto p = name.find('('); p != std::string::npos) {
    if (name.back() != ')') return false;
    base = name.substr(0, p);
    args = name.substr(p + 1, name.size() - p - 2);
  }
  if (base == "bigint" || base == "int8" || base == "long") out = DataType::bigint();
  else if (base == "integer" || base == "int" || base == "int4") out = DataType::integer();
  else if (base == "double" || base == "float" || base == "real" || base == "float8") out = DataType::float64();
  else if (base == "varchar" || base == "char" || base == "text" || base == "string") out = DataType::varchar();
  else if (base == "date") out = DataType::date();
  else if (base == "boolean" || base == "bool") out = DataType::boolean();
  else if (base == "decimal" || base == "numeric") {
    int p = 18, s = 0;
    if (!args.empty()) {
      auto comma = args.find(',');
      try {
        p = std::stoi(args.substr(0, comma));
        s = comma == std::string::npos ? 0 : std::stoi(args.substr(comma + 1));
      } catch (...) {
        return false;
      }
    }
    if (p < 1 || p > 18 || s < 0 || s > p) return false;
    out = DataType::decimal(static_cast<uint8_t>(p), static_cast<uint8_t>(s));
    return true;
  } else return false;
  // Only varchar/char take a (length) argument among the non-decimal types.
  if (!args.empty() && out.id != TypeId::Varchar) return false;
  return true;
}

int64_t pow10_i64(int n) {
  static const int64_t table[] = {1LL, 10LL, 100LL, 1000LL, 10000LL, 100000LL, 1000000LL, 10000000LL,
                                  100000000LL, 1000000000LL, 10000000000LL, 100000000000LL, 1000000000000LL,
                                  10000000000000LL, 100000000000000LL, 1000000000000000LL,
                                  10000000000000000LL, 100000000000000000LL, 1000000000000000000LL};
  return table[std::clamp(n, 0, 18)];
}

}  // namespace hindsight
