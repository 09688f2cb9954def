#pragma once
#include <cstdint>
#include <string>

namespace hindsight {

/// What a statement allows a table load that it triggers. Loaders call check() every few thousand
/// rows with what the table holds so far, so that a load which would exceed the statement's memory
/// budget or outlive its deadline stops early, and the failed load leaves nothing behind.
class LoadGuard {
 public:
  virtual ~LoadGuard() = default;
  /// `bytes`: the in-memory size of table `table` loaded so far, or a lower estimate of it (growing; the
  /// last call is exact).
  /// Throws MEMORY_LIMIT_EXCEEDED or TIMEOUT.
  virtual void check(const std::string& table, int64_t bytes) = 0;
  /// `bytes` more of table `table` loaded (a column read on demand: what it allocated), on top of what
  /// check() and add() were told before. Throws like check().
  virtual void add(const std::string& table, int64_t bytes) = 0;
};

}  // namespace hindsight
