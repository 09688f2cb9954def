#pragma once
#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/fragment_order.hpp"

namespace hindsight {

/// A piece of the physical plan between exchanges. `make(w)` builds instance w's operator tree; every fragment
/// but the root ends in an ExchangeSinkOp, and fragments read the exchanges of the fragments they depend on.
struct Fragment {
  int id = 0;
  int instances = 1;  ///< workers, or 1 for the target of a gather
  std::function<std::unique_ptr<ExecOperator>(int worker)> make;
  std::vector<int> depends_on;  ///< ids of the fragments that must finish first (their exchanges feed this one)
  FragmentFootprint footprint;  ///< the planner's estimate of what it holds, for the order (build_exec_plan)
};

/// Runs the fragments of one query attempt and keeps every operator instance alive afterwards so that its stats
/// can be read, whether the run succeeded or failed.
class FragmentScheduler {
 public:
  explicit FragmentScheduler(ExecContext* ctx) : ctx_(ctx) {}

  /// Builds every instance of every fragment, then runs the fragments one after the other in
  /// memory_frugal_order (depth-first: a fragment right after its inputs, the inputs of one fragment ordered by
  /// their footprints to lower the peak; estimate_peak_memory replays the same order), the instances of
  /// one fragment in parallel on min(instances, hardware threads) threads. Returns the batches of the root
  /// fragment (`root_id`; -1: the one fragment nothing depends on), instance 0's first.
  /// On failure: sets ctx->cancelled so the other instances stop, waits for them, and rethrows the first Error
  /// (another std::exception becomes INTERNAL; a cancellation from outside without an error is INTERNAL too).
  /// The root's batches are charged to ctx->memory while they accumulate (a result that cannot fit the budget
  /// fails like any other buffer) and released when they are handed over. May be called once.
  std::vector<Batch> run(const std::vector<Fragment>& fragments, int root_id = -1);

  /// Calls fn on every operator instance of every fragment (pre-order per tree), including instances that never
  /// ran or failed (their stats have complete == false).
  void visit_operators(const std::function<void(const ExecOperator&)>& fn) const;
  /// Calls fn on every operator instance that has finished running: every instance of the fragments that finished
  /// (all of them once run() has returned) and the instances of the running fragment that ran to their end. Safe
  /// from a worker of the fragment that runs now: an instance is marked done after its last next(), and nothing
  /// touches its operators after that.
  void visit_finished(const std::function<void(const ExecOperator&)>& fn) const;
  /// Root operators of a fragment's instances (empty if it was not built).
  const std::vector<std::unique_ptr<ExecOperator>>& instances(int fragment_id) const;
  /// Output types of the root fragment (known even when it produced no rows).
  const std::vector<DataType>& output_types() const;
  /// Ids of the fragments in the order run() runs them (set when run() starts).
  const std::vector<int>& order() const { return order_; }
  /// The order run() follows for `fragments` (ids), without running them.
  static std::vector<int> schedule(const std::vector<Fragment>& fragments);

 private:
  struct Built {
    int id;
    std::vector<std::unique_ptr<ExecOperator>> roots;
    /// Per instance: it ran to its end (set by its worker after its last next(), read by visit_finished).
    std::unique_ptr<std::atomic<bool>[]> done;
  };
  void run_fragment(Built& f, std::vector<std::vector<Batch>>* outputs);
  void record_failure(std::exception_ptr e);

  ExecContext* ctx_;
  std::vector<Built> built_;
  std::vector<int> order_;
  int root_index_ = -1;
  size_t finished_ = 0;  ///< built_[0, finished_) have run to the end (set between fragments, by run()'s thread)
  std::mutex failure_mu_;
  std::exception_ptr first_error_;
  std::atomic<int64_t> result_bytes_{0};  ///< charged for the root's batches collected so far
};

/// Runs `fragments` with a scheduler the caller keeps for the stats: scheduler.run(fragments, root_id).
std::vector<Batch> run_fragments(FragmentScheduler& scheduler, const std::vector<Fragment>& fragments, int root_id = -1);

}  // namespace hindsight
