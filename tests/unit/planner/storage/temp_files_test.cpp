#include "planner/storage/temp_files.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::dead_pid;
using storage_test::TempDir;
using storage_test::write_file;

std::set<std::string> files_in(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

TEST(TempFilesTest, NamesCarryThePidAndACounter) {
  PendingTempFile a("/data/x.hsc"), b("/data/x.hsc");
  const std::string prefix = "/data/x.hsc.tmp." + std::to_string(::getpid()) + ".";
  EXPECT_EQ(a.path().rfind(prefix, 0), 0u) << a.path();
  EXPECT_NE(a.path(), b.path());
  EXPECT_TRUE(a.covered());
  // Past PATH_MAX a name cannot be registered (the file still gets written, and swept later).
  PendingTempFile huge("/" + std::string(5000, 'x'));
  EXPECT_FALSE(huge.covered());
}

TEST(TempFilesTest, SweepRemovesOnlyTempFilesOfDeadProcesses) {
  TempDir dir;
  const std::string dead = std::to_string(dead_pid());
  const std::string live = std::to_string(::getppid());
  const std::string self = std::to_string(::getpid());
  const std::vector<std::string> kept = {
      "x.hsc.tmp." + live + ".0",      // a live process is still writing it
      "x.hsc.tmp." + self + ".3",      // so is this one
      "x.hsc",                         // the cache itself
      "x.hsc.tmp." + dead,             // not our pattern: no counter
      "x.hsc.tmp." + dead + ".0.bak",  // not our pattern: trailing text
      "x.hsc.tmp." + dead + ".0x",     // not decimal
      "x.csv.tmp." + dead + ".0",      // another suffix (the generator's files are not swept here)
      ".hsc.tmp." + dead + ".0",       // no name before the suffix
      "x.hsc.tmp.0.0",                 // pid 0 would mean the process group
      "x.hsc.tmp.-" + dead + ".0",     // not decimal
      "x.stats.tmp." + dead + ".0",    // another suffix
  };
  for (const auto& name : kept) write_file(dir.file(name), "keep");
  write_file(dir.file("x.hsc.tmp." + dead + ".0"), "partial");
  write_file(dir.file("orders.csv.hsc.tmp." + dead + ".17"), "partial");
  std::filesystem::create_directory(dir.file("d.hsc.tmp." + dead + ".1"));  // only regular files go

  EXPECT_EQ(remove_dead_temp_files(dir.path(), ".hsc"), 2u);
  std::set<std::string> expected(kept.begin(), kept.end());
  expected.insert("d.hsc.tmp." + dead + ".1");
  EXPECT_EQ(files_in(dir.path()), expected);
  EXPECT_EQ(remove_dead_temp_files(dir.path(), ".hsc"), 0u);
  EXPECT_EQ(remove_dead_temp_files(dir.path(), ".stats"), 1u);
  EXPECT_EQ(remove_dead_temp_files(dir.file("absent"), ".hsc"), 0u);  // no folder: nothing to do, no error
}

/// Runs `body` in a child process with the cleanup handler installed; returns its wait status.
template <typename Fn>
int run_child(Fn&& body) {
  pid_t pid = ::fork();
  if (pid == 0) {
    install_temp_file_cleanup();
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(TempFilesTest, SignalRemovesRegisteredFilesAndTheProcessStillDiesOfIt) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    TempDir dir;
    int status = run_child([&] {
      PendingTempFile done(dir.file("a.hsc"));
      write_file(done.path(), "complete");
      ::rename(done.path().c_str(), dir.file("a.hsc").c_str());
      PendingTempFile busy(dir.file("b.hsc"));  // in flight when the signal comes
      write_file(busy.path(), "partial");
      write_file(dir.file("reached"), "");
      ::raise(sig);
      ::_exit(3);  // not reached: the signal kills the child
    });
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig << ", status " << status;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(files_in(dir.path()), (std::set<std::string>{"a.hsc", "reached"})) << "signal " << sig;
  }
}

TEST(TempFilesTest, AnIgnoredSignalStaysIgnored) {
  // Under nohup SIGHUP is ignored: installing the cleanup must not turn it into a fatal signal.
  TempDir dir;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGHUP, SIG_IGN);
    install_temp_file_cleanup();
    PendingTempFile busy(dir.file("c.hsc"));
    write_file(busy.path(), "partial");
    ::raise(SIGHUP);
    ::_exit(7);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_EQ(files_in(dir.path()).size(), 1u);  // the process went on, so its temp file is still its own
}

}  // namespace
}  // namespace hindsight
