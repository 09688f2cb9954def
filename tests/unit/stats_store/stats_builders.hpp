#pragma once
// Small builders for stats_store tests: attempts and stats over named tables.
#include <filesystem>
#include <string>
#include <unistd.h>

#include "stats_store/runtime_stats.hpp"

namespace hindsight::stats::testing {

inline sig::Signature sig_of(uint64_t n) { return sig::Signature{0x5157000000000000ULL | n, n * 0x9E3779B97F4A7C15ULL}; }

inline RuntimeStats stat(uint64_t n, double rows, std::vector<std::string> inputs = {"t"}, bool lower_bound = false,
                         StatsSource::KeyKind kind = StatsSource::KeyKind::Exact) {
  RuntimeStats s;
  s.kind = kind;
  s.signature = sig_of(n);
  s.operator_name = "Scan";
  s.canonical_text = "scan(t)#" + std::to_string(n);
  s.rows = rows;
  s.lower_bound = lower_bound;
  s.bytes = static_cast<uint64_t>(rows) * 8;
  s.peak_memory = 1000 + static_cast<int64_t>(n);
  s.build_bytes = 10 * n;
  s.input_tables = std::move(inputs);
  return s;
}

inline AttemptStats attempt(std::vector<RuntimeStats> stats, std::vector<TableVersion> tables = {{"t", "v1", 1000}},
                            int64_t started_ms = 0, std::string query = "SELECT * FROM t") {
  AttemptStats a;
  a.query_text = query;
  a.query_hash = sig::Signature{std::hash<std::string>{}(query), 7}.hex();
  a.plan_hash = "plan";
  a.started_unix_ms = started_ms;
  a.tables = std::move(tables);
  a.stats = std::move(stats);
  return a;
}

/// A fresh folder under the test temp dir, removed at destruction.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("hindsight-store-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

}  // namespace hindsight::stats::testing
