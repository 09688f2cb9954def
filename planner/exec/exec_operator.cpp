#include "planner/exec/exec_operator.hpp"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/exec/fault_injection.hpp"

namespace hindsight {

namespace {
uint64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}
uint64_t wall_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}
}  // namespace

ExecOperator::~ExecOperator() {
  if (held_memory_ > 0 && ctx_ && ctx_->memory) ctx_->memory->release(held_memory_, live_bytes_);
}

void ExecOperator::open() {
  uint64_t w0 = wall_ns(), c0 = thread_cpu_ns();
  for (auto& c : children_) c->open();
  stats_.wall_ns += wall_ns() - w0;
  stats_.cpu_ns += thread_cpu_ns() - c0;
}

bool ExecOperator::next(Batch& out) {
  out.rows = 0;
  if (exhausted_) return false;
  if (check_interrupt()) throw QueryCancelled{};
  uint64_t w0 = wall_ns(), c0 = thread_cpu_ns();
  bool more;
  do {
    more = next_impl(out);
  } while (more && out.rows == 0);
  stats_.wall_ns += wall_ns() - w0;
  stats_.cpu_ns += thread_cpu_ns() - c0;
  if (!more) {
    out.rows = 0;
    exhausted_ = true;
    stats_.complete = true;
    return false;
  }
  stats_.rows_out += out.rows;
  stats_.batches_out += 1;
  stats_.bytes_out += out.byte_size();
  if (ctx_->fault && children_.empty()) ctx_->fault->observe(name_, out.rows, label());  // a leaf: rows produced
  return true;
}

bool ExecOperator::pull(size_t child, Batch& out) {
  bool more = children_[child]->next(out);
  if (more) {
    stats_.rows_in += out.rows;
    if (ctx_->fault) ctx_->fault->observe(name_, out.rows, label());  // rows consumed
  }
  return more;
}

void ExecOperator::charge(int64_t bytes) {
  if (bytes <= 0) return;
  charge(bytes, live_bytes_ + bytes);
}

void ExecOperator::charge(int64_t bytes, int64_t live) {
  if (bytes < 0) bytes = 0;
  if (bytes == 0) return set_live(live);
  ctx_->memory->charge(bytes, label(), live - live_bytes_);
  held_memory_ += bytes;
  live_bytes_ = live;
  if (held_memory_ >= stats_.peak_memory) {
    stats_.peak_memory = held_memory_;
    stats_.peak_memory_live = live_bytes_;
  }
}

bool ExecOperator::try_charge(int64_t bytes, int64_t live) { return try_charge_as(bytes, live, false); }

bool ExecOperator::try_charge_spill_buffers(int64_t bytes, int64_t live) { return try_charge_as(bytes, live, true); }

bool ExecOperator::try_charge_as(int64_t bytes, int64_t live, bool buffers) {
  if (bytes < 0) bytes = 0;
  if (bytes == 0) {
    set_live(live);
    return true;
  }
  const int64_t delta = live - live_bytes_;
  if (!(buffers ? ctx_->memory->try_charge_spill_buffers(bytes, delta) : ctx_->memory->try_charge(bytes, delta)))
    return false;
  held_memory_ += bytes;
  live_bytes_ = live;
  if (held_memory_ >= stats_.peak_memory) {
    stats_.peak_memory = held_memory_;
    stats_.peak_memory_live = live_bytes_;
  }
  return true;
}

void ExecOperator::set_spill_buffer_charge(int64_t bytes, int64_t& charged) {
  if (bytes > charged) {
    if (!try_charge_spill_buffers(bytes - charged, live_bytes_ + bytes - charged))
      throw Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
                  fmt::format("{} spills, but spilling did not help: the buffers of its spill files need {} more "
                              "while {} are in use, over the limit {}",
                              label(), format_bytes(bytes - charged), format_bytes(ctx_->memory->used()),
                              format_bytes(ctx_->memory->limit())));
  } else {
    release(charged - bytes);
  }
  charged = bytes;
}

void ExecOperator::set_live(int64_t live) {
  if (live == live_bytes_) return;
  ctx_->memory->add_live(live - live_bytes_);
  live_bytes_ = live;
  if (held_memory_ == stats_.peak_memory && held_memory_ > 0) stats_.peak_memory_live = live_bytes_;
}

void ExecOperator::release(int64_t bytes) {
  if (bytes <= 0) return;
  if (bytes > held_memory_) bytes = held_memory_;
  const int64_t live = bytes == held_memory_ ? live_bytes_ : std::min(bytes, live_bytes_);
  ctx_->memory->release(bytes, live);
  held_memory_ -= bytes;
  live_bytes_ -= live;
}

bool ExecContext::spill_now(const ExecOperator& overflowing) {
  if (spill.load(std::memory_order_acquire)) return true;
  std::lock_guard<std::mutex> lock(spill_in_place_mu_);
  if (!spill_in_place_asked_ && spill_in_place) {
    spill_in_place_asked_ = true;
    spill_in_place(overflowing);  // turns `spill` on when it says yes
  }
  return spill.load(std::memory_order_acquire);
}

bool ExecOperator::charge_or_spill(int64_t bytes, int64_t live, const std::function<void()>& spill) {
  if (!ctx_->memory) return true;  // nothing is accounted: nothing is refused
  if (try_charge(bytes, live)) return true;
  if (!spill_enabled() && !spill_in_place()) {
    // Refused again (unless memory was freed meanwhile): MEMORY_LIMIT_EXCEEDED naming this operator.
    charge(bytes, live);
    return true;
  }
  // The instances of a fragment fill their tables side by side and reach the limit together: without the turn,
  // each one refused before the first spill freed its memory spilled too (q12 at SF 1 wrote its join's build and
  // probe sides from one to three instances, run to run).
  std::lock_guard<std::mutex> turn(ctx_->spill_turn);
  if (try_charge(bytes, live)) return true;
  spill();
  return false;
}

void ExecOperator::fail_early_if_over(int64_t grown) const {
  const MemoryTracker& m = *ctx_->memory;
  if (!m.fail_early() || grown <= 0 || children_.empty()) return;  // off once spilling is (spilling in place)
  const double p = children_[0]->progress();
  if (p < kFailEarlyMinProgress || p >= 1) return;
  const double whole = static_cast<double>(grown) / p;
  const double projected = static_cast<double>(m.used()) + whole - static_cast<double>(grown);
  if (projected <= static_cast<double>(m.limit())) return;
  // The overflow is foreseen: the attempt may go on spilling instead (the refused charge will spill, not fail).
  if (spill_in_place()) return;
  throw Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
              fmt::format("{} would exceed the memory limit: it took {} for {:.0f} % of its input, about {} for all of "
                          "it, while {} are in use: about {} > limit {} (stopped early: reexec_fail_early)",
                          label(), format_bytes(grown), 100 * p, format_bytes(static_cast<int64_t>(whole)),
                          format_bytes(m.used()), format_bytes(static_cast<int64_t>(projected)), format_bytes(m.limit())));
}

bool ExecOperator::check_interrupt() const {
  if (ctx_->deadline != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() > ctx_->deadline)
    throw Error(ErrorCode::TIMEOUT, fmt::format("query exceeded its time limit in {}", label()));
  return ctx_->cancelled.load(std::memory_order_relaxed);
}

std::string ExecOperator::label() const { return fmt::format("{}#{} (worker {})", name_, exec_id, worker_); }

}  // namespace hindsight
