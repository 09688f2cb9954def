#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <string>

#include "planner/exec/memory_tracker.hpp"
#include "planner/session/settings.hpp"
#include "planner/storage/load_guard.hpp"

namespace hindsight {

struct ExecutedQuery;

/// The limits of one statement (`memory_limit`, `timeout`), shared by its compilation and its
/// execution: the deadline runs from the start of the statement, and the memory budget is charged
/// by the table columns the statement loads (they stay charged until it ends) as well as by its hash
/// tables, sort buffers and exchange buffers. A column an earlier statement of the process loaded is
/// shared and not charged again.
class QueryLimits final : public LoadGuard {
 public:
  explicit QueryLimits(const Settings& settings);

  MemoryTracker& memory() { return memory_; }
  std::chrono::steady_clock::time_point deadline() const { return deadline_; }
  /// Throws TIMEOUT when the deadline has passed; `doing` names the work ("loading table 'lineitem'").
  void check_deadline(const std::string& doing) const;

  /// Charges what `earlier` charged for the tables it loaded, as if this attempt had loaded them: a
  /// re-executed attempt of a statement runs under the same budget as its first attempt, although
  /// the tables are loaded by then. Throws MEMORY_LIMIT_EXCEEDED when they do not fit this budget.
  void charge_loads_of(const QueryLimits& earlier);

  /// LoadGuard: charges what table `table` grew by since the last call, then checks the deadline.
  void check(const std::string& table, int64_t bytes) override;
  /// LoadGuard: charges `bytes` more for table `table` (columns it loads on demand add up).
  void add(const std::string& table, int64_t bytes) override;

  /// Spilling in place (`reexec_spill_in_place`, docs/reexec.md): set by the re-execution driver for an attempt
  /// without spilling whose overflow it would answer with the same plan spilling. Asked once, at the attempt's
  /// first overflow that an operator could spill, from that operator's thread, with what the attempt observed so
  /// far (`seen`: its exec plan, the stats of the fragments that finished, exact, and of the overflowing
  /// instance's operators, cut short) and its error. True: the attempt goes on with spilling on. `why` says what
  /// was decided, for people. It must not throw. Null: an overflow fails the attempt.
  std::function<bool(const ExecutedQuery& seen, std::string& why)> spill_in_place;

 private:
  MemoryTracker memory_;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  std::map<std::string, int64_t> loaded_;  ///< bytes charged per table being or been loaded
};

}  // namespace hindsight
