#include "planner/exec/fragment_scheduler.hpp"

#include <system_error>

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <thread>
#include <unordered_map>

#include "planner/common/error.hpp"

namespace hindsight {

namespace {

void visit_tree(const ExecOperator& op, const std::function<void(const ExecOperator&)>& fn) {
  fn(op);
  for (const auto& c : op.children()) visit_tree(*c, fn);
}

/// Indexes of `fragments` in the order they run: memory_frugal_order over their ids and footprints.
std::vector<size_t> dependency_order(const std::vector<Fragment>& fragments) {
  std::unordered_map<int, size_t> index;
  for (size_t i = 0; i < fragments.size(); ++i) {
    HS_ASSERT(index.emplace(fragments[i].id, i).second, fmt::format("duplicate fragment id {}", fragments[i].id));
  }
  std::vector<std::vector<size_t>> inputs(fragments.size());
  std::vector<FragmentFootprint> footprints;
  for (size_t i = 0; i < fragments.size(); ++i) {
    for (int d : fragments[i].depends_on) {
      auto it = index.find(d);
      HS_ASSERT(it != index.end(), fmt::format("fragment {} depends on unknown fragment {}", fragments[i].id, d));
      inputs[i].push_back(it->second);
    }
    footprints.push_back(fragments[i].footprint);
  }
  return memory_frugal_order(inputs, footprints);
}

}  // namespace

void FragmentScheduler::record_failure(std::exception_ptr e) {
  {
    std::lock_guard<std::mutex> lock(failure_mu_);
    if (!first_error_) first_error_ = e;
  }
  ctx_->cancelled.store(true, std::memory_order_relaxed);
}

std::vector<Batch> FragmentScheduler::run(const std::vector<Fragment>& fragments, int root_id) {
  HS_ASSERT(built_.empty(), "FragmentScheduler::run called twice");
  HS_ASSERT(!fragments.empty(), "no fragments to run");
  std::vector<size_t> order = dependency_order(fragments);
  for (size_t i : order) order_.push_back(fragments[i].id);
  if (root_id < 0) {
    std::vector<bool> depended(fragments.size(), false);
    std::unordered_map<int, size_t> index;
    for (size_t i = 0; i < fragments.size(); ++i) index[fragments[i].id] = i;
    for (auto& f : fragments)
      for (int d : f.depends_on) depended[index[d]] = true;
    HS_ASSERT(std::count(depended.begin(), depended.end(), false) == 1, "cannot tell the root fragment");
    root_id = fragments[static_cast<size_t>(std::find(depended.begin(), depended.end(), false) - depended.begin())].id;
  }

  // Build every instance first, so that stats exist for fragments that never get to run.
  built_.reserve(fragments.size());
  try {
    for (size_t i : order) {
      const Fragment& f = fragments[i];
      HS_ASSERT(f.instances >= 1 && f.make, fmt::format("fragment {} has no instances", f.id));
      built_.push_back({f.id, {}, std::make_unique<std::atomic<bool>[]>(static_cast<size_t>(f.instances))});
      if (f.id == root_id) root_index_ = static_cast<int>(built_.size() - 1);
      for (int w = 0; w < f.instances; ++w) built_.back().roots.push_back(f.make(w));
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(ErrorCode::INTERNAL, fmt::format("building fragment instances: {}", e.what()));
  }
  HS_ASSERT(root_index_ >= 0, fmt::format("root fragment {} not among the fragments", root_id));

  std::vector<std::vector<Batch>> outputs;
  struct ReleaseResult {
    FragmentScheduler* s;
    ~ReleaseResult() {
      if (s->ctx_->memory) s->ctx_->memory->release(s->result_bytes_.exchange(0));
    }
  } release_result{this};
  for (size_t k = 0; k < built_.size(); ++k) {
    bool is_root = static_cast<int>(k) == root_index_;
    if (is_root) outputs.resize(built_[k].roots.size());
    run_fragment(built_[k], is_root ? &outputs : nullptr);
    finished_ = k + 1;
    if (first_error_) std::rethrow_exception(first_error_);
    if (ctx_->cancelled.load(std::memory_order_relaxed))
      throw Error(ErrorCode::INTERNAL, "query was cancelled");
  }
  std::vector<Batch> result;
  for (auto& o : outputs)
    for (auto& b : o) result.push_back(std::move(b));
  return result;
}

void FragmentScheduler::run_fragment(Built& f, std::vector<std::vector<Batch>>* outputs) {
  const int n = static_cast<int>(f.roots.size());
  std::atomic<int> next{0};
  auto work = [&]() {
    while (true) {
      int i = next.fetch_add(1);
      if (i >= n || ctx_->cancelled.load(std::memory_order_relaxed)) return;
      try {
        ExecOperator& root = *f.roots[static_cast<size_t>(i)];
        if (outputs) root.set_output_held();
        root.open();
        Batch b;
        if (outputs) {
          while (root.next(b)) {
            // The result is held until the statement ends: it counts against the budget like any buffer.
            int64_t held = 0;
            for (const auto& c : b.columns) held += static_cast<int64_t>(c.allocated_bytes());
            if (ctx_->memory) {
              ctx_->memory->charge(held, "the query result");
              result_bytes_ += held;
            }
            (*outputs)[static_cast<size_t>(i)].push_back(std::move(b));
            b = Batch();
          }
        } else {
          while (root.next(b)) {
          }
        }
        f.done[static_cast<size_t>(i)].store(true, std::memory_order_release);
      } catch (const QueryCancelled&) {
        // Another instance failed (or the caller cancelled); its error is the one to report.
      } catch (const Error&) {
        record_failure(std::current_exception());
      } catch (const std::exception& e) {
        record_failure(std::make_exception_ptr(Error(ErrorCode::INTERNAL, e.what())));
      } catch (...) {
        record_failure(std::make_exception_ptr(Error(ErrorCode::INTERNAL, "unknown exception in an operator")));
      }
    }
  };
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  int threads = std::min(n, static_cast<int>(hw));
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads > 1 ? threads - 1 : 0));
  for (int t = 1; t < threads; ++t) {
    // The system may refuse a thread (EAGAIN under load): fewer threads do the same work.
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  work();  // the calling thread is one of the workers
  for (auto& t : pool) t.join();
}

void FragmentScheduler::visit_operators(const std::function<void(const ExecOperator&)>& fn) const {
  for (const auto& f : built_)
    for (const auto& r : f.roots)
      if (r) visit_tree(*r, fn);
}

void FragmentScheduler::visit_finished(const std::function<void(const ExecOperator&)>& fn) const {
  for (size_t k = 0; k <= finished_ && k < built_.size(); ++k) {
    const Built& f = built_[k];
    for (size_t i = 0; i < f.roots.size(); ++i)
      if (f.roots[i] && (k < finished_ || f.done[i].load(std::memory_order_acquire))) visit_tree(*f.roots[i], fn);
  }
}

const std::vector<std::unique_ptr<ExecOperator>>& FragmentScheduler::instances(int fragment_id) const {
  static const std::vector<std::unique_ptr<ExecOperator>> none;
  for (const auto& f : built_)
    if (f.id == fragment_id) return f.roots;
  return none;
}

const std::vector<DataType>& FragmentScheduler::output_types() const {
  static const std::vector<DataType> none;
  if (root_index_ < 0 || built_[static_cast<size_t>(root_index_)].roots.empty()) return none;
  return built_[static_cast<size_t>(root_index_)].roots[0]->output_types();
}

std::vector<int> FragmentScheduler::schedule(const std::vector<Fragment>& fragments) {
  std::vector<int> ids;
  for (size_t i : dependency_order(fragments)) ids.push_back(fragments[i].id);
  return ids;
}

std::vector<Batch> run_fragments(FragmentScheduler& scheduler, const std::vector<Fragment>& fragments, int root_id) {
  return scheduler.run(fragments, root_id);
}

}  // namespace hindsight
