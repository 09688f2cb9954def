#include "planner/physical/memory_estimate.hpp"

#include "planner/exec/fragment_order.hpp"

#include <algorithm>
#include <thread>
#include <unordered_map>

namespace hindsight {

namespace {

// Bytes per row that operator state holds beyond row_width (which already counts 16 per row), from EXPLAIN
// ANALYZE's `mem` of TPC-H plans at SF 0.01 with 1 worker: a hash join's table keeps a hash and a chain link per
// row and a bucket array of about twice as many heads; an aggregate's group table likewise; a sort a permutation.
constexpr double kHashTableRowBytes = 16;
constexpr double kGroupTableRowBytes = 16;
constexpr double kSortRowBytes = 8;

/// Bytes summed over workers and the share of the busiest worker.
struct Amount {
  double total = 0;
  double worker = 0;
  Amount& operator+=(const Amount& a) {
    total += a.total;
    worker += a.worker;
    return *this;
  }
  Amount& operator-=(const Amount& a) {
    total -= a.total;
    worker -= a.worker;
    return *this;
  }
};
Amount operator+(Amount a, const Amount& b) { return a += b; }
Amount operator-(Amount a, const Amount& b) { return a -= b; }
Amount max_of(const Amount& a, const Amount& b) { return {std::max(a.total, b.total), std::max(a.worker, b.worker)}; }

/// What a pipeline leaves to the breaker that ends it: the held bytes it drains (`source`) and the tables of the
/// hash joins it probes (`tables`, freed when it ends).
struct Pipeline {
  Amount source;
  Amount tables;
};

class PeakSimulation {
 public:
  PeakSimulation(const PlanContext& ctx, int workers, int threads)
      : ctx_(ctx),
        workers_(std::max(1, workers)),
        alive_(static_cast<double>(std::clamp(threads > 0 ? threads : workers, 1, std::max(1, workers))) /
               std::max(1, workers)) {}

  PeakMemoryEstimate run(const PhysicalOperator& root, const std::vector<const PhysicalOperator*>& ctes, bool result) {
    for (const PhysicalOperator* c : ctes) fragment(c, nullptr, true);
    fragment(&root, nullptr, false);
    result_ = result;
    for (size_t i = 0; i < frags_.size(); ++i) measure(i);
    // The executor's order (FragmentScheduler), from the same footprints.
    std::vector<std::vector<size_t>> inputs;
    for (const Frag& f : frags_) inputs.push_back(f.deps);
    PeakMemoryEstimate e;
    Amount held, peak;
    for (size_t i : memory_frugal_order(inputs, footprints())) {
      peak = max_of(peak, held + frags_[i].run);
      held += frags_[i].delta;
      e.order.push_back(static_cast<int>(i));
    }
    e.total = peak.total;
    e.per_worker = peak.worker;
    return e;
  }

  std::vector<FragmentFootprint> footprints() const {
    std::vector<FragmentFootprint> out;
    for (const Frag& f : frags_) out.push_back({f.run.total, f.exchange || f.cte ? f.out.total : 0.0, f.cte});
    return out;
  }

  std::vector<FragmentFootprint> footprints(const PhysicalOperator& root, const std::vector<const PhysicalOperator*>& ctes,
                                            bool result) {
    run(root, ctes, result);
    return footprints();
  }

 private:
  struct Frag {
    const PhysicalOperator* root;
    const PhysicalOperator* exchange;  ///< the exchange it feeds; null for the query or a CTE
    bool cte;
    std::vector<size_t> deps;
    // Measured on its own, relative to what is held when it starts (its inputs included):
    bool measured = false;
    Amount run;    ///< the most it adds while it runs
    Amount delta;  ///< what it leaves held when it is done (its output) minus the inputs it drained
    Amount out;    ///< its output buffer (exchange or CTE), or the result
  };

  /// Fragments numbered as exec_builder numbers them: a fragment before the ones that feed it, in pre-order.
  size_t fragment(const PhysicalOperator* root, const PhysicalOperator* exchange, bool cte) {
    size_t id = frags_.size();
    Frag f;
    f.root = root;
    f.exchange = exchange;
    f.cte = cte;
    frags_.push_back(std::move(f));
    if (cte) cte_frags_.push_back(id);
    std::vector<size_t> deps;
    collect(*root, deps);
    frags_[id].deps = std::move(deps);
    return id;
  }
  void collect(const PhysicalOperator& op, std::vector<size_t>& deps) {
    if (op.kind == PhysicalOpKind::Exchange) {
      deps.push_back(fragment(op.children[0].get(), &op, false));
      return;
    }
    if (op.kind == PhysicalOpKind::CteScan) {
      size_t i = static_cast<size_t>(op.as<PhysicalCteScan>().cte_index);
      if (i < cte_frags_.size()) deps.push_back(cte_frags_[i]);
    }
    for (auto& c : op.children) collect(*c, deps);
  }
  /// Simulates fragment i on its own (its inputs first, for their buffers' sizes): what it holds relative to
  /// what is held when it starts. The simulation is linear in what is held, so the peak of any order follows.
  void measure(size_t i) {
    Frag& f = frags_[i];
    if (f.measured) return;
    f.measured = true;
    for (size_t d : f.deps) measure(d);
    held_ = {};
    peak_ = {};
    f.out = run_fragment(f);
    f.run = peak_;
    f.delta = held_;
  }

  double rows(const PhysicalOperator& op) const { return std::max(0.0, op.estimated_rows); }
  /// `bytes` held by the instances of a stream distributed as `d` (a distributed amount is shared evenly).
  Amount spread(double bytes, const Distribution& d) const {
    return {bytes, d.is_single_instance() ? bytes : bytes / workers_};
  }
  /// `bytes` of which every worker holds a full copy.
  Amount copies(double bytes) const { return {bytes * workers_, bytes}; }

  /// Operator state of a fragment running as `d`: a distributed fragment's instances hold it `alive_` at a time.
  Amount state(Amount a, const Distribution& d) const {
    if (!d.is_single_instance()) a.total *= alive_;
    return a;
  }

  /// A pipeline ends in a breaker that holds `breaker`: its input drains as the breaker fills.
  void end_pipeline(const Pipeline& p, const Amount& breaker) {
    Amount during = held_ - p.source + max_of(p.source, breaker);
    peak_ = max_of(peak_, during);
    held_ = held_ - p.source - p.tables + breaker;
  }

  /// Runs `f` from held_ and returns its output buffer.
  Amount run_fragment(const Frag& f) {
    Pipeline p = pipe(*f.root);
    Amount out;
    // An exchange or CTE buffer holds the batches' column bytes: no per-row overhead (row_width adds 16).
    const double bytes = rows(*f.root) * std::max(1.0, row_width(*f.root, ctx_) - 16);
    if (f.exchange) {
      out = f.exchange->as<PhysicalExchange>().exchange == ExchangeKind::Broadcast ? copies(bytes)
                                                                                    : spread(bytes, f.exchange->distribution);
      buffered_[f.exchange] = out;
    } else if (f.cte || result_) {
      out = spread(bytes, f.root->distribution);
    }
    end_pipeline(p, out);
    if (!f.exchange && !f.cte) held_ -= out;  // the result is handed over
    return out;
  }

  Pipeline pipe(const PhysicalOperator& op) {
    switch (op.kind) {
      case PhysicalOpKind::Exchange: {
        auto it = buffered_.find(&op);
        return {it == buffered_.end() ? Amount{} : it->second, {}};
      }
      case PhysicalOpKind::TableScan:
      case PhysicalOpKind::Values:
      case PhysicalOpKind::CteScan: return {};
      case PhysicalOpKind::Filter:
      case PhysicalOpKind::Project:
      case PhysicalOpKind::Limit: return pipe(*op.children[0]);
      case PhysicalOpKind::UnionAll: {
        Pipeline all;
        for (auto& c : op.children) {
          Pipeline p = pipe(*c);
          all.source += p.source;
          all.tables += p.tables;
        }
        return all;
      }
      case PhysicalOpKind::HashJoin:
      case PhysicalOpKind::NestedLoopJoin: {
        const PhysicalOperator& build = *op.children[1];
        Pipeline b = pipe(build);
        const double bytes = rows(build) * (row_width(build, ctx_) + kHashTableRowBytes);
        // A build side replicated to every worker (broadcast, reference table) is a copy per worker.
        const bool copied = build.distribution.kind == StreamDistribution::Replicated && !op.distribution.is_single_instance();
        Amount table = state(copied ? copies(bytes) : spread(bytes, build.distribution), op.distribution);
        end_pipeline(b, table);
        Pipeline p = pipe(*op.children[0]);
        p.tables += table;
        return p;
      }
      case PhysicalOpKind::HashAggregate: {
        Pipeline c = pipe(*op.children[0]);
        Amount groups =
            state(spread(rows(op) * (row_width(op.outputs, ctx_) + kGroupTableRowBytes), op.distribution), op.distribution);
        end_pipeline(c, groups);
        return {groups, {}};
      }
      case PhysicalOpKind::Sort:
      case PhysicalOpKind::TopN: {
        const PhysicalOperator& in = *op.children[0];
        Pipeline c = pipe(in);
        double n = rows(in);
        if (op.kind == PhysicalOpKind::TopN) {
          const auto& t = op.as<PhysicalTopN>();
          const double instances = op.distribution.is_single_instance() ? 1 : workers_;
          n = std::min(n, static_cast<double>(t.limit + t.offset) * instances);
        }
        Amount kept = state(spread(n * (row_width(op.outputs, ctx_) + kSortRowBytes), op.distribution), op.distribution);
        end_pipeline(c, kept);
        return {kept, {}};
      }
    }
    return {};
  }

  const PlanContext& ctx_;
  double workers_;
  double alive_;  ///< the share of a distributed fragment's instances that run at once
  bool result_ = true;
  std::vector<Frag> frags_;
  std::vector<size_t> cte_frags_;
  std::unordered_map<const PhysicalOperator*, Amount> buffered_;
  Amount held_, peak_;
};

}  // namespace

PeakMemoryEstimate estimate_peak_memory(const PhysicalOperator& root, const PlanContext& ctx, int workers,
                                        const std::vector<const PhysicalOperator*>& ctes, bool result, int threads) {
  return PeakSimulation(ctx, workers, threads).run(root, ctes, result);
}

std::vector<FragmentFootprint> fragment_footprints(const PhysicalOperator& root, const PlanContext& ctx, int workers,
                                                   const std::vector<const PhysicalOperator*>& ctes, bool result,
                                                   int threads) {
  return PeakSimulation(ctx, workers, threads).footprints(root, ctes, result);
}

int executor_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace hindsight
