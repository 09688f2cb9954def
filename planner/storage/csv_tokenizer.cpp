#include "planner/storage/csv_tokenizer.hpp"

#include <algorithm>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hindsight {

namespace {
constexpr size_t kReadChunk = size_t{16} << 20;
}

CsvTokenizer::CsvTokenizer(std::string path, std::vector<std::string> column_names)
    : path_(std::move(path)), column_names_(std::move(column_names)) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error(ErrorCode::IO_ERROR, fmt::format("cannot open '{}': {}", path_, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd_, &st) == 0) file_size_ = static_cast<uint64_t>(st.st_size);
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  // A small file gets a window its size (plus one byte, so the first read can see the end of the file):
  // a 16 MB window zero-filled for every small table costs more than reading it.
  buf_.resize(static_cast<size_t>(std::min<uint64_t>(kReadChunk, file_size_ + 1)));
  read_more();
  if (end_ >= 3 && std::memcmp(buf_.data(), "\xEF\xBB\xBF", 3) == 0) pos_ = 3;
}

CsvTokenizer::~CsvTokenizer() {
  if (fd_ >= 0) ::close(fd_);
}

void CsvTokenizer::read_more() {
  if (eof_) return;
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    window_offset_ += pos_;
    end_ -= pos_;
    pos_ = 0;
  }
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);  // one record larger than the window
  ssize_t n;
  do n = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
  while (n < 0 && errno == EINTR);
  if (n < 0) throw Error(ErrorCode::IO_ERROR, fmt::format("error reading '{}': {}", path_, std::strerror(errno)));
  if (n == 0) eof_ = true;
  end_ += static_cast<size_t>(n);
}

const std::vector<CsvField>* CsvTokenizer::next() {
  for (;;) {
    const char* next = nullptr;
    Tok t = tokenize(buf_.data() + pos_, buf_.data() + end_, next);
    if (t == Tok::NeedMore) {
      read_more();
      continue;
    }
    if (t == Tok::End) return nullptr;
    // Records are consumed when handed out: the fields stay valid until the next call, which may move the window.
    pos_ = static_cast<size_t>(next - buf_.data());
    line_ = next_line_;
    return &fields_;
  }
}

bool CsvTokenizer::tokenize_simple_line(const char* p, const char* nl, const char* end, const char*& next) {
  // Fast path: a whole line with no quote is one record whose fields are split at commas.
  const char* line_end = nl ? nl : end;
  if (std::memchr(p, '"', static_cast<size_t>(line_end - p))) return false;
  const char* e = line_end;
  if (e > p && e[-1] == '\r') --e;
  for (const char* s = p;;) {
    const char* q = s;
    while (q < e && *q != ',') ++q;
    fields_.push_back(CsvField{s, s, static_cast<size_t>(q - s), p, line_, false, false});
    if (q == e) break;
    s = q + 1;
  }
  next = nl ? nl + 1 : end;
  next_line_ = nl ? line_ + 1 : line_;
  return true;
}

CsvTokenizer::Tok CsvTokenizer::tokenize(const char* p, const char* end, const char*& next) {
  fields_.clear();
  if (p == end) return eof_ ? Tok::End : Tok::NeedMore;
  // Every record ends at a newline or at the end of the file: without either, wait for more bytes.
  const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
  if (!nl && !eof_) return Tok::NeedMore;
  if (tokenize_simple_line(p, nl, end, next)) return Tok::Record;
  fields_.clear();
  int line = line_;
  const char* ls = p;
  for (;;) {
    CsvField f{p, p, 0, ls, line, false, false};
    if (p < end && *p == '"') {
      f.quoted = true;
      const char* s = ++p;
      for (;;) {
        const char* q = static_cast<const char*>(std::memchr(p, '"', static_cast<size_t>(end - p)));
        if (!q) {
          if (!eof_) return Tok::NeedMore;
          fail(f, fmt::format("column '{}': unterminated quoted field", column_name(fields_.size())));
        }
        for (const char* x = p; x < q; ++x)
          if (*x == '\n') ++line, ls = x + 1;
        if (q + 1 == end && !eof_) return Tok::NeedMore;
        if (q + 1 < end && q[1] == '"') {
          f.escaped = true;
          p = q + 2;
          continue;
        }
        f.begin = s;
        f.len = static_cast<size_t>(q - s);
        p = q + 1;
        break;
      }
      fields_.push_back(f);
      if (p < end && *p == ',') {
        ++p;
        continue;
      }
      if (p < end && *p == '\r' && p + 1 == end && !eof_) return Tok::NeedMore;
      if (p < end && *p == '\r' && (p + 1 == end || p[1] == '\n')) ++p;
      if (p == end || *p == '\n') {
        next = p == end ? p : p + 1;
        next_line_ = p == end ? line : line + 1;
        return Tok::Record;
      }
      CsvField bad{p, p, 0, ls, line, false, false};
      fail(bad, fmt::format("column '{}': unexpected character after closing quote", column_name(fields_.size() - 1)));
    }
    const char* s = p;
    while (p < end && *p != ',' && *p != '\n') ++p;
    if (p == end && !eof_) return Tok::NeedMore;
    const char* e = p;
    if (e > s && e[-1] == '\r' && (p == end || *p == '\n')) --e;
    f.len = static_cast<size_t>(e - s);
    fields_.push_back(f);
    if (p < end && *p == ',') {
      ++p;
      continue;
    }
    next = p == end ? p : p + 1;
    next_line_ = p == end ? line : line + 1;
    return Tok::Record;
  }
}

std::string CsvTokenizer::column_name(size_t i) const {
  return i < column_names_.size() ? column_names_[i] : fmt::format("#{}", i + 1);
}

std::string_view CsvTokenizer::unescape(const CsvField& f, std::string& scratch) {
  scratch.clear();
  for (size_t i = 0; i < f.len; ++i) {
    scratch += f.begin[i];
    if (f.begin[i] == '"') ++i;  // "" -> "
  }
  return scratch;
}

SourcePos CsvTokenizer::pos_of(const CsvField& f) const {
  int col = 1;
  for (const char* x = f.line_start; x < f.start; ++x)
    if ((static_cast<unsigned char>(*x) & 0xC0) != 0x80) ++col;
  return SourcePos{path_, f.line, col};
}

void CsvTokenizer::fail(const CsvField& f, const std::string& message) const { throw error_at(f, message); }

Error CsvTokenizer::error_at(const CsvField& f, const std::string& message) const {
  return Error(ErrorCode::DATA_ERROR, message, pos_of(f));
}

}  // namespace hindsight
