#pragma once
#include <cstdint>
#include <string>

namespace hindsight {

/// Logical SQL types. Physical representation (see PhysicalKind):
/// BOOLEAN, INTEGER, BIGINT, DATE (days since 1970-01-01) and DECIMAL (value * 10^scale)
/// are stored as int64; DOUBLE as double; VARCHAR as std::string.
enum class TypeId : uint8_t { Null, Boolean, Integer, BigInt, Double, Decimal, Varchar, Date };

enum class PhysicalKind : uint8_t { Int64, Double, String };

struct DataType {
  TypeId id = TypeId::Null;
  uint8_t precision = 0;  ///< DECIMAL only
  uint8_t scale = 0;      ///< DECIMAL only

  static DataType null() { return {TypeId::Null}; }
  static DataType boolean() { return {TypeId::Boolean}; }
  static DataType integer() { return {TypeId::Integer}; }
  static DataType bigint() { return {TypeId::BigInt}; }
  static DataType float64() { return {TypeId::Double}; }
  static DataType decimal(uint8_t p, uint8_t s) { return {TypeId::Decimal, p, s}; }
  static DataType varchar() { return {TypeId::Varchar}; }
  static DataType date() { return {TypeId::Date}; }

  PhysicalKind physical() const {
    switch (id) {
      case TypeId::Double: return PhysicalKind::Double;
      case TypeId::Varchar: return PhysicalKind::String;
      default: return PhysicalKind::Int64;
    }
  }
  bool is_numeric() const {
    return id == TypeId::Integer || id == TypeId::BigInt || id == TypeId::Double || id == TypeId::Decimal;
  }
  bool is_integral() const { return id == TypeId::Integer || id == TypeId::BigInt; }
  bool operator==(const DataType& o) const {
    return id == o.id && (id != TypeId::Decimal || (precision == o.precision && scale == o.scale));
  }
  bool operator!=(const DataType& o) const { return !(*this == o); }
  /// SQL spelling: "BIGINT", "DECIMAL(15,2)", ...
  std::string to_string() const;
};

/// Parses a type name as written in SQL or catalog.json ("decimal(15,2)", "int", "varchar(25)").
/// Returns false if the name is not a supported type.
bool parse_type_name(const std::string& name, DataType& out);

/// 10^n for n in [0, 18].
int64_t pow10_i64(int n);

}  // namespace hindsight
