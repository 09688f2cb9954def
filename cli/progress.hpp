#pragma once
// The progress bar of `capture` and `replay` on stderr (one line rewritten in place), drawn only when stderr is a
// terminal: pipes, files and tests see nothing of it.
#include <cstddef>
#include <string>

namespace hindsight::cli {

/// "[=====>              ] 12/34 three_pairs_seven_way (feedback on)": `done` of `total` finished, the next
/// one named by `label`; at most `width - 1` columns (characters) (the bar narrows first, then the label is cut), so that the
/// terminal never wraps the line and `\r` rewrites it in place. A done == total bar is full and has no '>'.
std::string progress_line(size_t done, size_t total, const std::string& label, size_t width);

class ProgressBar {
 public:
  /// Draws on stderr when `isatty(2)`, else does nothing at all.
  ProgressBar();
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  /// Before item `index` (from 0) of `total`; index == total clears the line.
  void update(size_t index, size_t total, const std::string& label);
  void clear();

 private:
  bool tty_ = false;
  bool drawn_ = false;
};

}  // namespace hindsight::cli
