#pragma once
// The failure of a stats store operation: what the maintenance API (`hindsight stats`) throws. The
// StatsRepository methods never throw; they turn these into "STORE_ERROR: ..." warnings.
#include <stdexcept>
#include <string>

namespace hindsight::stats {

class StoreError : public std::runtime_error {
 public:
  /// `sqlite_code`: the SQLite result code behind the failure, 0 when none.
  explicit StoreError(const std::string& message, int sqlite_code = 0)
      : std::runtime_error(message), sqlite_code_(sqlite_code) {}
  int sqlite_code() const { return sqlite_code_; }
  /// "STORE_ERROR: <message>"
  std::string format() const { return std::string("STORE_ERROR: ") + what(); }

 private:
  int sqlite_code_;
};

}  // namespace hindsight::stats
