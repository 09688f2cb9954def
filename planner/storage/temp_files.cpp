#include "planner/storage/temp_files.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace hindsight {

namespace {

// The registry is what the signal handler reads, so it holds only what a handler may touch: lock-free atomics and
// fixed C strings. A slot goes Free -> Filling (its path is being copied) -> Active -> Free; the handler claims an
// Active slot (-> Claimed, never reused) before reading its path, so a slot being refilled is never unlinked.
enum SlotState : int { kFree, kFilling, kActive, kClaimed };
constexpr size_t kMaxPath = PATH_MAX;

struct Slot {
  std::atomic<int> state{kFree};
  char path[kMaxPath];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free slot states");

Slot g_slots[kMaxPendingTempFiles];
std::atomic<uint64_t> g_counter{0};

void remove_pending_and_die(int sig) {
  const int saved_errno = errno;
  for (Slot& slot : g_slots) {
    int expected = kActive;
    if (slot.state.compare_exchange_strong(expected, kClaimed, std::memory_order_acquire)) ::unlink(slot.path);
  }
  // Die of the signal as if no handler had been installed: it stays blocked until the handler returns.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
  errno = saved_errno;
}

/// Decimal digits only, not empty, at most `max_digits`.
bool parse_digits(std::string_view s, size_t max_digits, uint64_t& out) {
  if (s.empty() || s.size() > max_digits) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

/// True for "<name><suffix>.tmp.<pid>.<n>" with a non-empty name and a positive pid; sets `pid`.
bool is_temp_file_name(std::string_view file, std::string_view suffix, pid_t& pid) {
  size_t last = file.rfind('.');
  uint64_t n, p;
  if (last == std::string_view::npos || !parse_digits(file.substr(last + 1), 20, n)) return false;
  std::string_view rest = file.substr(0, last);
  size_t before_pid = rest.rfind('.');
  if (before_pid == std::string_view::npos || !parse_digits(rest.substr(before_pid + 1), 10, p)) return false;
  if (p == 0 || p > static_cast<uint64_t>(INT_MAX)) return false;
  rest = rest.substr(0, before_pid);
  constexpr std::string_view kTmp = ".tmp";
  if (rest.size() <= suffix.size() + kTmp.size()) return false;  // the name before the suffix is not empty
  if (rest.substr(rest.size() - kTmp.size()) != kTmp) return false;
  rest.remove_suffix(kTmp.size());
  if (rest.substr(rest.size() - suffix.size()) != suffix) return false;
  pid = static_cast<pid_t>(p);
  return true;
}

}  // namespace

PendingTempFile::PendingTempFile(const std::string& final_path)
    : path_(fmt::format("{}.tmp.{}.{}", final_path, ::getpid(), g_counter.fetch_add(1))) {
  if (path_.size() >= kMaxPath) return;
  for (size_t i = 0; i < kMaxPendingTempFiles; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kFilling, std::memory_order_acquire)) {
      std::memcpy(g_slots[i].path, path_.c_str(), path_.size() + 1);
      g_slots[i].state.store(kActive, std::memory_order_release);
      slot_ = static_cast<int>(i);
      return;
    }
  }
}

PendingTempFile::~PendingTempFile() {
  if (slot_ < 0) return;
  int expected = kActive;  // a slot the handler claimed stays claimed: the process is about to die
  g_slots[slot_].state.compare_exchange_strong(expected, kFree, std::memory_order_release);
}

void install_temp_file_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (int sig : signals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0) continue;
      if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;  // ignored (nohup) or handled
      struct sigaction sa {};
      sa.sa_handler = remove_pending_and_die;
      sigemptyset(&sa.sa_mask);
      for (int other : signals) sigaddset(&sa.sa_mask, other);  // one cleanup at a time
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

size_t remove_dead_temp_files(const std::string& directory, std::string_view suffix) {
  size_t removed = 0;
  try {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::directory_iterator it(directory.empty() ? fs::path(".") : fs::path(directory), ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
      pid_t pid;
      if (!is_temp_file_name(it->path().filename().native(), suffix, pid)) continue;
      std::error_code type_ec;
      if (!fs::is_regular_file(it->symlink_status(type_ec)) || pid == ::getpid()) continue;
      if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to ask about (EPERM)
      if (::unlink(it->path().c_str()) == 0) ++removed;
    }
  } catch (const std::exception&) {
    // best effort: a sweep that cannot finish leaves the rest for the next one
  }
  return removed;
}

}  // namespace hindsight
