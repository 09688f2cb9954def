// retry: a TRANSIENT error re-runs the same plan after a short, bounded backoff.
#include <fmt/format.h>

#include <algorithm>

#include "reexec/plugins/plugins.hpp"

namespace hindsight::reexec {

namespace {

class RetryPlugin final : public Plugin {
 public:
  /// Backoff before retry k (1-based): kFirstBackoffMs * 2^(k-1), at most kMaxBackoffMs.
  static constexpr int kFirstBackoffMs = 10;
  static constexpr int kMaxBackoffMs = 100;

  const char* name() const noexcept override { return "retry"; }
  bool wants_reexecution(const AttemptOutcome& o) noexcept override {
    return o.error && *o.error == ErrorCode::TRANSIENT;
  }
  void prepare(const AttemptOutcome&, NextAttempt& next) noexcept override {
    ++retries_;
    const int backoff = std::min(kMaxBackoffMs, kFirstBackoffMs << std::min(retries_ - 1, 10));
    next.backoff_ms = std::max(next.backoff_ms, backoff);
    next.notes.push_back(fmt::format("retry {} after {} ms", retries_, backoff));
  }
  /// A transient failure says nothing about the plan: run it again unchanged.
  bool accept_plan(const AttemptOutcome& o, const CompiledQuery&, bool) noexcept override {
    return o.error && *o.error == ErrorCode::TRANSIENT;
  }

 private:
  int retries_ = 0;
};

}  // namespace

std::unique_ptr<Plugin> make_retry_plugin() { return std::make_unique<RetryPlugin>(); }

}  // namespace hindsight::reexec
