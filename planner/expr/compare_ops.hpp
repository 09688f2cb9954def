#pragma once
// Comparison helpers shared by the comparison kernels and the filter fast paths (internal).
#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "planner/common/error.hpp"
#include "planner/expr/expr.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight::eval {

/// Calls f with the comparison functor of `op` (Eq..Ge); strings compare bytewise.
template <typename F>
void with_comparator(ScalarOp op, F&& f) {
  switch (op) {
    case ScalarOp::Eq:
      return f(std::equal_to<>{});
    case ScalarOp::Ne:
      return f(std::not_equal_to<>{});
    case ScalarOp::Lt:
      return f(std::less<>{});
    case ScalarOp::Le:
      return f(std::less_equal<>{});
    case ScalarOp::Gt:
      return f(std::greater<>{});
    case ScalarOp::Ge:
      return f(std::greater_equal<>{});
    default:
      throw_internal(__FILE__, __LINE__, std::string("not a comparison: ") + scalar_op_name(op));
  }
}

inline bool is_comparison(ScalarOp op) { return is_comparison_op(op); }

/// The operator with swapped operands: a < b  <=>  b > a.
inline ScalarOp mirror(ScalarOp op) { return mirror_comparison(op); }

/// The non-NULL constants of an IN list: a linear scan when short, else binary search (numbers) or a hash set
/// (strings). T is int64_t, double or std::string_view (viewing strings that outlive the set).
template <typename T>
class InSet {
 public:
  void add(T v) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) return;  // NaN equals nothing
    }
    values_.push_back(v);
  }
  void build() {
    std::sort(values_.begin(), values_.end());
    values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
    if constexpr (std::is_same_v<T, std::string_view>) {
      if (values_.size() > kLinear) hashed_.insert(values_.begin(), values_.end());
    }
  }
  bool contains(T v) const {
    if (values_.size() <= kLinear) {
      for (const T& x : values_)
        if (x == v) return true;
      return false;
    }
    if constexpr (std::is_same_v<T, std::string_view>) {
      return hashed_.count(v) != 0;
    } else {
      return std::binary_search(values_.begin(), values_.end(), v);
    }
  }
  bool empty() const { return values_.empty(); }

 private:
  static constexpr size_t kLinear = 8;
  std::vector<T> values_;
  std::unordered_set<std::string_view> hashed_;
};

/// The list of `x IN (...)`: its non-NULL constants converted to the type of x, whether a NULL constant is listed,
/// and the elements that are not constants.
struct InListParts {
  ColumnVector constants;
  bool has_null = false;
  std::vector<const Expr*> others;
};
InListParts split_in_list(const Expr& in_list);

/// An InSet over the values of `c` (which must outlive it).
template <typename T>
InSet<T> make_in_set(const ColumnVector& c) {
  InSet<T> set;
  if constexpr (std::is_same_v<T, int64_t>) {
    for (int64_t v : c.ints) set.add(v);
  } else if constexpr (std::is_same_v<T, double>) {
    for (double v : c.dbls) set.add(v);
  } else {
    for (const std::string& v : c.strs) set.add(std::string_view(v));
  }
  set.build();
  return set;
}

}  // namespace hindsight::eval
