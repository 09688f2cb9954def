#pragma once
// Shared by the libFuzzer targets: what counts as a finding, and a scratch folder per process.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "planner/common/error.hpp"

namespace hindsight::fuzz {

/// Findings that are reported (tests/random/known_failures.md) but not fixed yet, by a piece of their message:
/// tolerated, so that fuzzing goes on past them and `make test` stays green meanwhile. Put their reproducers in
/// the seed corpus (known_*), so that removing the entry here once the fix has landed turns them into regression
/// tests. HINDSIGHT_FUZZ_STRICT=1 tolerates none. (K1, K2 and K7 are fixed: their reproducers known_k1_*,
/// known_k2_* and known_k7_* guard the fixes.)
inline const std::vector<std::string> kKnownFindings = {};

inline bool is_known_finding(const std::string& what) {
  if (std::getenv("HINDSIGHT_FUZZ_STRICT")) return false;
  for (const std::string& k : kKnownFindings)
    if (what.find(k) != std::string::npos) {
      static bool said = false;
      if (!said) std::fprintf(stderr, "hindsight fuzz: known finding tolerated: %s\n", what.c_str());
      said = true;
      return true;
    }
  return false;
}

/// A defect the target found by itself (not a sanitizer report): print it and abort, so libFuzzer
/// saves the input as a crash.
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "\n==== hindsight fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// Runs `fn`: a hindsight::Error is the expected outcome of a bad input and is swallowed, except INTERNAL; any
/// other exception escaping the engine is a finding (the CLI would report it as INTERNAL at best, or abort), unless
/// it is a known one.
template <class Fn>
void expect_only_hindsight_errors(const char* stage, Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    // INTERNAL is an invariant check that failed (HS_ASSERT): a defect, whatever the input.
    if (e.code() == ErrorCode::INTERNAL) {
      const std::string what = std::string(stage) + ": INTERNAL error: " + e.format();
      if (!is_known_finding(what)) finding(what);
    }
  } catch (const std::exception& e) {
    const std::string what = std::string(stage) + ": non-hindsight exception escaped: " + e.what();
    if (!is_known_finding(what)) finding(what);
  }
}

/// A scratch folder for this process under /dev/shm when it exists (fsync and rename cost nothing
/// there), removed at exit. Never destroyed (exit handlers run after function-local statics die).
inline const std::string& scratch_dir(const char* target) {
  static const std::string& dir = *[target] {
    std::filesystem::path base = std::filesystem::exists("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                                     : std::filesystem::temp_directory_path();
    auto* d = new std::string((base / (std::string("hindsight-fuzz-") + target + "-" + std::to_string(getpid())))
                                  .string());
    std::filesystem::remove_all(*d);
    std::filesystem::create_directories(*d);
    return d;
  }();
  static const bool registered = [] {
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(nullptr), ec);
    });
    return true;
  }();
  (void)registered;
  return dir;
}

}  // namespace hindsight::fuzz
