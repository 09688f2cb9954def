#pragma once
// Helpers for storage and catalog tests: temp folders under /tmp, files, and error expectations.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "planner/common/error.hpp"

namespace hindsight::storage_test {

/// A fresh folder under /tmp, removed with everything in it at destruction.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/hindsight-storage-test-XXXXXX";
    char* p = ::mkdtemp(tmpl);
    if (!p) throw std::runtime_error("mkdtemp failed");
    path_ = p;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Sets a file's modification time to `seconds` after the epoch (plus `nanos`).
inline void set_mtime(const std::string& path, int64_t seconds, long nanos = 0) {
  struct timespec times[2];
  times[0].tv_sec = seconds;
  times[0].tv_nsec = nanos;
  times[1] = times[0];
  ::utimensat(AT_FDCWD, path.c_str(), times, 0);
}

/// Runs `fn`, which must throw Error with `code`; returns it (a default INTERNAL error if it did not throw).
template <typename Fn>
Error expect_throws(Fn&& fn, ErrorCode code) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(error_code_name(e.code()), std::string(error_code_name(code))) << e.what();
    return e;
  }
  ADD_FAILURE() << "expected an Error with code " << error_code_name(code);
  return Error(ErrorCode::INTERNAL, "did not throw");
}

}  // namespace hindsight::storage_test
