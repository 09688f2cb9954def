// Date kernels: EXTRACT(YEAR/MONTH/DAY), date + days, date + months, date - date.
#include "planner/common/date.hpp"
#include "planner/expr/eval_internal.hpp"

namespace hindsight::eval {

ColumnVector eval_date_call(const Expr& e, const std::vector<Operand>& args, size_t n) {
  ColumnVector out(e.type);
  out.nulls = union_nulls(args, n);
  out.ints.assign(n, 0);
  auto is_null = [&](size_t i) { return !out.nulls.empty() && out.nulls[i]; };
  const Operand& a = args.at(0);
  const int64_t* av = ints_of(a);
  switch (e.op) {
    case ScalarOp::ExtractYear:
    case ScalarOp::ExtractMonth:
    case ScalarOp::ExtractDay:
      for (size_t i = 0; i < n; ++i) {
        if (is_null(i)) continue;
        int64_t y;
        unsigned m, d;
        civil_from_days(av[a.at(i)], y, m, d);
        out.ints[i] = e.op == ScalarOp::ExtractYear ? y : e.op == ScalarOp::ExtractMonth ? m : d;
      }
      return out;
    case ScalarOp::DateAddDays:
    case ScalarOp::DateAddMonths: {
      const Operand& b = args.at(1);
      const int64_t* bv = ints_of(b);
      const bool days = e.op == ScalarOp::DateAddDays;
      for (size_t i = 0; i < n; ++i) {
        if (is_null(i)) continue;
        const bool ok = days ? add_days(av[a.at(i)], bv[b.at(i)], out.ints[i])
                             : add_months(av[a.at(i)], bv[b.at(i)], out.ints[i]);
        if (!ok) throw_data_error("date out of range (DATE values lie between 0001-01-01 and 9999-12-31)");
      }
      return out;
    }
    case ScalarOp::DateDiffDays: {
      const Operand& b = args.at(1);
      const int64_t* bv = ints_of(b);
      for (size_t i = 0; i < n; ++i) {
        if (is_null(i)) continue;
        if (__builtin_sub_overflow(av[a.at(i)], bv[b.at(i)], &out.ints[i])) throw_data_error("date out of range");
      }
      return out;
    }
    default:
      break;
  }
  throw_internal(__FILE__, __LINE__, std::string("not a date function: ") + scalar_op_name(e.op));
}

}  // namespace hindsight::eval
