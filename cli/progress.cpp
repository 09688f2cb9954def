#include "cli/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace hindsight::cli {

namespace {

constexpr size_t kBarWidth = 20;

/// The terminal's columns (80 when it does not say).
size_t terminal_width() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// Columns of UTF-8 text: one per character (query names and plan symbols like ⋈ are one column wide).
size_t columns(const std::string& s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return !continuation(c); }));
}

/// The first `n` characters (whole characters only).
std::string cut(const std::string& s, size_t n) {
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (!continuation(s[i]) && chars++ == n) return s.substr(0, i);
  return s;
}

}  // namespace

std::string progress_line(size_t done, size_t total, const std::string& label, size_t width) {
  done = std::min(done, total);
  const std::string count = fmt::format("{}/{}", std::min(done + 1, total), total);
  const size_t room = width > 1 ? width - 1 : 0;
  // The bar takes what the count and the label leave, between 5 and kBarWidth columns ("[" + bar + "] ").
  const size_t fixed = count.size() + 1 + columns(label);
  size_t bar = room > fixed + 3 ? std::min(kBarWidth, room - fixed - 3) : 0;
  bar = std::max<size_t>(bar, 5);
  const size_t filled = total == 0 ? bar : done * bar / total;
  std::string line = "[" + std::string(filled, '=');
  if (filled < bar) line += ">" + std::string(bar - filled - 1, ' ');
  line += "] " + count;
  if (!label.empty()) line += " " + label;
  return cut(line, room);
}

ProgressBar::ProgressBar() : tty_(isatty(STDERR_FILENO) == 1) {}

ProgressBar::~ProgressBar() { clear(); }

void ProgressBar::update(size_t index, size_t total, const std::string& label) {
  if (!tty_) return;
  if (index >= total) return clear();
  std::fputs(("\r\033[K" + progress_line(index, total, label, terminal_width())).c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::clear() {
  if (!tty_ || !drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace hindsight::cli
