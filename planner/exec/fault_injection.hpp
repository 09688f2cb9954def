#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "planner/common/error.hpp"

namespace hindsight {

/// A fault to inject, for tests (`SET fault_injection = 'operator=HashJoinBuild;after_rows=1000;error=TRANSIENT;times=1'`):
/// the executable operator named `op` fails with `error` once it (summed over its workers) has
/// processed `after_rows` rows (rows it consumed from its children; a leaf: rows it produced).
/// `times` counts the attempts of one statement that get the fault (re-execution included).
/// With `delay_ms` the fault is a slowdown instead of an error: the operator sleeps that long once
/// and goes on (`operator=HashJoinBuild;delay_ms=300`: a plan made slower, for the regression guard).
struct FaultSpec {
  std::string op;
  uint64_t after_rows = 0;
  ErrorCode error = ErrorCode::TRANSIENT;
  int times = 1;
  int64_t delay_ms = 0;  ///< > 0: sleep this long instead of failing
  bool active() const { return !op.empty() && times > 0; }
};

/// Parses "operator=NAME;after_rows=N;error=CODE;times=N" or "operator=NAME;after_rows=N;delay_ms=N;times=N"
/// (operator is required; after_rows defaults to 0, error to TRANSIENT, times to 1; error and
/// delay_ms exclude each other; "" or "none" = no fault). Throws TYPE_ERROR.
FaultSpec parse_fault_spec(const std::string& text);
/// The text parse_fault_spec reads back (empty for no fault).
std::string describe_fault_spec(const FaultSpec& spec);

/// One attempt's armed fault, shared by every worker (ExecContext::fault).
class FaultInjection {
 public:
  explicit FaultInjection(FaultSpec spec) : spec_(std::move(spec)) {}
  /// Counts `rows` processed by operator `name`; throws the injected error, naming `label`, on the
  /// batch that brings the count to `after_rows` or more (once per attempt); a delay fault sleeps instead.
  void observe(const std::string& name, uint64_t rows, const std::string& label);
  bool fired() const { return fired_.load(); }

 private:
  FaultSpec spec_;
  std::atomic<uint64_t> seen_{0};
  std::atomic<bool> fired_{false};
};

}  // namespace hindsight
