#pragma once
// Helpers for storage and catalog tests: temp folders under /tmp, files, and error expectations.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

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

/// Overwrites bytes of `path` at `offset` in place (same inode, same size when `text` stays inside the file), as an
/// editor that rewrites a file does; returns the (mtime, ctime) the file had before, in nanoseconds.
inline std::pair<int64_t, int64_t> overwrite_in_place(const std::string& path, long offset, const std::string& text) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  // File timestamps come from a coarse kernel clock (a few milliseconds): let it move on, so that the write below
  // gets another ctime than the one a test recorded before.
  ::usleep(30'000);
  int fd = ::open(path.c_str(), O_WRONLY);
  if (fd < 0 || ::pwrite(fd, text.data(), text.size(), offset) != static_cast<ssize_t>(text.size()))
    throw std::runtime_error("overwrite_in_place failed");
  ::close(fd);
  return {st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec,
          st.st_ctim.tv_sec * 1'000'000'000LL + st.st_ctim.tv_nsec};
}

/// The pid of a child that has exited and been reaped: no process has it (until the kernel reuses it).
inline pid_t dead_pid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status;
  ::waitpid(pid, &status, 0);
  return pid;
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
