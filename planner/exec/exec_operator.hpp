#pragma once
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "planner/exec/memory_tracker.hpp"
#include "planner/exec/operator_stats.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

class FaultInjection;
class ExecOperator;

/// Shared by every operator instance of one query attempt.
struct ExecContext {
  MemoryTracker* memory = nullptr;
  int workers = 1;
  /// Absolute deadline; operators check it between batches (TIMEOUT). time_point::max() = none.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::atomic<bool> cancelled{false};  ///< set when another worker failed; operators stop early
  /// A fault to inject into this attempt (tests, `SET fault_injection`); null: none.
  FaultInjection* fault = nullptr;
  /// Spilling (`SET spill = on`, docs/spilling.md): operators that can write part of their data to temporary
  /// files in `spill_directory` do so instead of failing when a charge would exceed the memory limit. Read by
  /// every worker; it can turn on while the attempt runs (spilling in place), never off.
  std::atomic<bool> spill{false};
  std::string spill_directory;  ///< set before `spill` turns on
  /// Spilling in place (`reexec_spill_in_place`, docs/reexec.md): asked with the operator that overflows when a
  /// charge that operator could spill is refused (or fail early foresees its overflow) while spilling is off.
  /// It returns true after turning spilling on for the rest of the attempt (spill_directory, the spill reserve,
  /// the exchange buffers, then `spill`): the operator spills instead of failing. False (or null): it fails.
  std::function<bool(const ExecOperator& overflowing)> spill_in_place;
  /// Asks spill_in_place once per attempt (under a mutex: the other workers that overflow meanwhile wait for the
  /// answer and get the same one). True when spilling is on, whoever turned it on.
  bool spill_now(const ExecOperator& overflowing);
  /// Held by an operator from the refusal of a charge it will answer by spilling until that spill gave its memory
  /// back (ExecOperator::charge_or_spill): the instances refused meanwhile wait and charge again, rather than all
  /// spilling at the first overflow what one spill would have made room for.
  std::mutex spill_turn;

 private:
  std::mutex spill_in_place_mu_;
  bool spill_in_place_asked_ = false;
};

/// Thrown by next() in an operator instance when ExecContext::cancelled is set (another instance failed): it
/// unwinds the instance without marking any stats complete. The fragment scheduler swallows it in favour of the
/// error that caused the cancellation.
struct QueryCancelled : std::exception {
  const char* what() const noexcept override { return "query cancelled"; }
};

/// A vectorized, pull-based executable operator, instantiated once per worker.
/// next() is non-virtual: it wraps next_impl() and records rows, batches, bytes and time, so no
/// operator has to remember to count. Memory charged through charge() is tracked per operator.
class ExecOperator {
 public:
  ExecOperator(std::string name, ExecContext* ctx, int worker) : name_(std::move(name)), ctx_(ctx), worker_(worker) {}
  virtual ~ExecOperator();

  /// Fills `out` with the next non-empty batch; returns false when exhausted (out.rows == 0 then).
  /// Throws QueryCancelled when the query was cancelled, TIMEOUT past the deadline.
  bool next(Batch& out);
  /// Called once before the first next(); opens children first (default) — overrides call the base.
  virtual void open();
  /// The share (0 to 1) of this operator's output produced so far, where every row it will produce is known in
  /// advance: an unfiltered table scan's rows read of the rows of its buckets, an exchange source's rows taken
  /// of the rows its buffer holds for it, and a projection of either. Below 0 everywhere else (a filter, a join's
  /// probe, a limit: how many rows they will let through depends on data not read yet, and on skewed data
  /// stored in key order the first share of a scan can hold most of a join's matches); 1 once exhausted.
  /// Read by the instance's own pipeline (one thread). Fail early extrapolates with it (fail_early_if_over).
  virtual double progress() const { return exhausted_ ? 1.0 : -1.0; }
  /// Says that whatever this operator emits is held until the statement ends (the root of the query's result,
  /// charged as it comes): an operator that holds its data while it emits may then make room first (SortOp).
  virtual void set_output_held() {}

  const std::string& name() const { return name_; }
  /// "HashJoinBuild#7 (worker 2)": how errors name this instance.
  std::string label() const;
  int worker() const { return worker_; }
  const OperatorStats& stats() const { return stats_; }
  /// Types of the columns this operator produces, fixed at construction (known even when no row flows).
  const std::vector<DataType>& output_types() const { return output_types_; }
  /// Bytes currently charged to the memory tracker by this instance.
  int64_t held_memory() const { return held_memory_; }
  /// Stable id of the executable operator this instance belongs to (same on every worker);
  /// set by the exec builder, used to key stats and mapper links.
  int exec_id = -1;

  std::vector<std::unique_ptr<ExecOperator>>& children() { return children_; }
  const std::vector<std::unique_ptr<ExecOperator>>& children() const { return children_; }
  void add_child(std::unique_ptr<ExecOperator> c) { children_.push_back(std::move(c)); }

  /// Pulls a child and counts its rows as this operator's input.
  bool pull(size_t child, Batch& out);

 protected:
  virtual bool next_impl(Batch& out) = 0;
  /// Memory accounting; throws MEMORY_LIMIT_EXCEEDED naming this operator and worker. charge(bytes)
  /// charges bytes that are all live data (scratch arrays filled whole); charge(bytes, live) charges
  /// `bytes` more allocated memory and says the operator's live data now totals `live` (MemoryTracker
  /// says what counts as live). Call them where buffers grow, never per row.
  void charge(int64_t bytes);
  void charge(int64_t bytes, int64_t live);
  /// As charge(bytes, live), but returns false instead of throwing when the limit would be exceeded
  /// (nothing changes then). Only for operators that spill (spill_enabled()).
  bool try_charge(int64_t bytes, int64_t live);
  /// As try_charge, for spill-file buffers: they may use the spill reserve (MemoryTracker::set_spill_reserve).
  bool try_charge_spill_buffers(int64_t bytes, int64_t live);
  /// As try_charge, up to the limit (the reserve included), for an operator that runs when no other needs
  /// the reserve (the sort of an ORDER BY, the last operator of its query).
  bool try_charge_to_limit(int64_t bytes, int64_t live) { return try_charge_as(bytes, live, true); }
  /// Whether this attempt lets operators spill to disk (ExecContext::spill).
  bool spill_enabled() const { return ctx_->spill.load(std::memory_order_acquire); }
  /// A charge this operator could spill was refused with spilling off: whether the attempt spills now
  /// (ExecContext::spill_now); false: fail as without spilling.
  bool spill_in_place() const { return ctx_->spill_now(*this); }
  /// As try_charge where the operator can spill: true when charged (spilling on or off). Refused with spilling on
  /// (it was, or it turned on in place now): calls `spill`, which must give back memory this operator holds, and
  /// returns false. One operator of the attempt at a time: the others refused meanwhile wait for that spill
  /// (ExecContext::spill_turn), then try their charge again. Refused with spilling staying off: throws
  /// MEMORY_LIMIT_EXCEEDED as charge() does.
  bool charge_or_spill(int64_t bytes, int64_t live, const std::function<void()>& spill);
  /// Charges or releases so that `charged` (the part of held_memory_ that is spill-file buffers) becomes
  /// `bytes`; growth the limit refuses is MEMORY_LIMIT_EXCEEDED saying that spilling did not help.
  void set_spill_buffer_charge(int64_t bytes, int64_t& charged);
  /// The operator's live data now totals `live`, with no change of what it has charged.
  void set_live(int64_t live);
  /// Releases `bytes` of what this operator charged; releasing all of it drops its live figure to 0,
  /// releasing part of it drops the live figure by as much.
  void release(int64_t bytes);
  /// Fail early (MemoryTracker::fail_early, armed by the re-execution driver): this operator's memory grows in
  /// proportion to its input (child 0), and `grown` bytes of live data are what it took for the share p of that
  /// input read so far (its progress(), known only where every input row is known in advance). From
  /// p >= kFailEarlyMinProgress on, throws MEMORY_LIMIT_EXCEEDED now when the rest of the input, at the same
  /// rate, would take what the query holds past its limit. Live bytes, not what is charged: the charge of a
  /// growing column runs up to twice ahead of its data, the extrapolation must not. Only this instance's growth
  /// counts (other instances of a fragment may read inputs of other sizes), so the projection errs low.
  /// Otherwise a no-op.
  void fail_early_if_over(int64_t grown) const;
  static constexpr double kFailEarlyMinProgress = 0.1;
  /// Throws TIMEOUT past the deadline; returns true if the query was cancelled.
  bool check_interrupt() const;

 private:
  bool try_charge_as(int64_t bytes, int64_t live, bool buffers);

 protected:

  std::string name_;
  ExecContext* ctx_;
  int worker_;
  std::vector<std::unique_ptr<ExecOperator>> children_;
  OperatorStats stats_;
  std::vector<DataType> output_types_;  ///< set by every constructor
  int64_t held_memory_ = 0;
  int64_t live_bytes_ = 0;  ///< the live part of held_memory_ (see MemoryTracker)
  bool exhausted_ = false;
};

}  // namespace hindsight
