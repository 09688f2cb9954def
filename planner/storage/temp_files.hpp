#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace hindsight {

/// A file written under a temporary name beside `final_path` and then renamed to it (or removed): the name is
/// "<final_path>.tmp.<pid>.<n>", n counting per process. While the object lives the file is registered for
/// removal should the process die of SIGINT, SIGTERM or SIGHUP (see install_temp_file_cleanup). Construct it before
/// creating the file and destroy it after the rename or unlink; it never creates or removes the file itself.
class PendingTempFile {
 public:
  explicit PendingTempFile(const std::string& final_path);
  ~PendingTempFile();
  PendingTempFile(const PendingTempFile&) = delete;
  PendingTempFile& operator=(const PendingTempFile&) = delete;

  const std::string& path() const { return path_; }
  /// False when the registry was full (kMaxPendingTempFiles) or the path too long: the file is then only
  /// removed by a later remove_dead_temp_files.
  bool covered() const { return slot_ >= 0; }

 private:
  std::string path_;
  int slot_ = -1;
};

/// How many temp files can be registered at once (one per table load or statistics write in flight).
constexpr size_t kMaxPendingTempFiles = 64;

/// Installs the SIGINT, SIGTERM and SIGHUP handler that unlinks the registered temp files and then dies of the
/// signal with its default action (so the exit status still says which signal). A signal that is ignored or
/// already handled is left alone. Idempotent; call it early in main().
void install_temp_file_cleanup();

/// Removes the temp files of processes that no longer exist from `directory`: regular files named
/// "<name><suffix>.tmp.<pid>.<n>" (name not empty, pid and n decimal) for which kill(pid, 0) fails with ESRCH.
/// Nothing else is touched. Returns how many files were removed; never throws (an unreadable folder removes none).
size_t remove_dead_temp_files(const std::string& directory, std::string_view suffix);

}  // namespace hindsight
