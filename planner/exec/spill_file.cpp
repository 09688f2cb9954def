#include "planner/exec/spill_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>
#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/common/hashing.hpp"

namespace hindsight {

namespace {

[[noreturn]] void io_error(const std::string& what, const std::string& dir, int err) {
  throw Error(ErrorCode::IO_ERROR, fmt::format("spilling to '{}': {}: {}", dir, what, std::strerror(err)));
}

int open_anonymous(const std::string& dir) {
#ifdef O_TMPFILE
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) io_error("cannot create a temporary file", dir, errno);
#endif
  std::string path = dir + "/hindsight-spill-XXXXXX";
  int fd2 = ::mkstemp(path.data());
  if (fd2 < 0) io_error("cannot create a temporary file", dir, errno);
  ::unlink(path.c_str());
  return fd2;
}

/// Descriptors of spill files whose owners are gone, kept for the next SpillFile in the same directory. Creating an
/// anonymous file is the file system's inode allocation (and closing it its eviction): when an aggregate's 16
/// partitions and a join's 34 per spilling instance were a file each, re-created for every partition split and
/// every partial spill, that took a third of the CPU time of a spilling execution at SF 0.1
/// (orders_with_popular_parts under 3.3 MB, `perf record`: ext4 inode bitmaps); they now share one SpillBacking
/// per aggregate instance and join side, and the pool keeps those. A reused file is written from offset 0 and each
/// SpillFile reads only the extents it wrote (Reader::read_at), so what an earlier owner left is never seen.
/// Bounded: a file that held more than kPooledFileBytes is truncated first (its disk space is given back), at most
/// kPooledFiles are kept, and release_pooled_spill_files (the end of every spilling execution) closes them all.
/// A file is pooled only once its owner closed it and a new one takes from the pool first, so the descriptors open
/// at once never exceed what the files alive at once needed.
struct FilePool {
  std::mutex mutex;
  std::vector<std::pair<std::string, int>> files;  ///< (directory, descriptor)
};
constexpr size_t kPooledFiles = 256;
constexpr uint64_t kPooledFileBytes = uint64_t{4} << 20;

FilePool& file_pool() {
  static FilePool* pool = new FilePool;  // never destroyed: a SpillFile may outlive static destruction order
  return *pool;
}

int take_pooled(const std::string& dir) {
  FilePool& p = file_pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  for (size_t i = p.files.size(); i-- > 0;) {
    if (p.files[i].first != dir) continue;
    const int fd = p.files[i].second;
    p.files.erase(p.files.begin() + static_cast<std::ptrdiff_t>(i));
    return fd;
  }
  return -1;
}

void give_back(const std::string& dir, int fd, uint64_t bytes) {
  if (bytes > kPooledFileBytes && ::ftruncate(fd, 0) != 0) {
    ::close(fd);
    return;
  }
  FilePool& p = file_pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    if (p.files.size() < kPooledFiles) {
      p.files.emplace_back(dir, fd);
      return;
    }
  }
  ::close(fd);
}

template <typename T>
void put(std::vector<char>& b, T v) {
  const size_t at = b.size();
  b.resize(at + sizeof(T));
  std::memcpy(b.data() + at, &v, sizeof(T));
}

}  // namespace

SpillBacking::SpillBacking(std::string dir) : dir_(std::move(dir)) {
  fd_ = take_pooled(dir_);
  if (fd_ < 0) fd_ = open_anonymous(dir_);
}

SpillBacking::~SpillBacking() {
  if (fd_ >= 0) give_back(dir_, fd_, end_);
}

uint64_t SpillBacking::take(uint64_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = free_.size(); i-- > 0;) {
    auto& [offset, bytes] = free_[i];
    if (bytes < n) continue;
    const uint64_t at = offset;
    offset += n;
    bytes -= n;
    if (bytes == 0) free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
    return at;
  }
  const uint64_t at = end_;
  end_ += n;
  return at;
}

void SpillBacking::give(uint64_t offset, uint64_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (n > 0) free_.emplace_back(offset, n);
}

SpillFile::SpillFile(std::vector<DataType> types, const std::string& dir, size_t buffer_bytes)
    : SpillFile(std::move(types), std::make_shared<SpillBacking>(dir), buffer_bytes) {}

SpillFile::SpillFile(std::vector<DataType> types, std::shared_ptr<SpillBacking> backing, size_t buffer_bytes)
    : types_(std::move(types)),
      backing_(std::move(backing)),
      buffer_bytes_(std::max(buffer_bytes, kSpillMinBufferBytes)),
      buffer_capacity_(buffer_bytes_) {
  buffer_.reserve(buffer_capacity_);
}

SpillFile::~SpillFile() {
  for (const Extent& e : extents_) backing_->give(e.offset, e.bytes);
}

void release_pooled_spill_files() {
  std::vector<std::pair<std::string, int>> files;
  {
    FilePool& p = file_pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    files.swap(p.files);
  }
  for (const auto& f : files) ::close(f.second);
}

size_t pooled_spill_files() {
  FilePool& p = file_pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.files.size();
}

void SpillFile::write_out(const char* data, size_t n) {
  if (n == 0) return;
  uint64_t at = backing_->take(n);
  if (!extents_.empty() && extents_.back().offset + extents_.back().bytes == at) extents_.back().bytes += n;
  else extents_.push_back({file_bytes_, at, n});
  while (n > 0) {
    ssize_t w = ::pwrite(backing_->fd(), data, n, static_cast<off_t>(at));
    if (w < 0) {
      if (errno == EINTR) continue;
      io_error("cannot write", backing_->dir(), errno);
    }
    data += w;
    at += static_cast<uint64_t>(w);
    n -= static_cast<size_t>(w);
    file_bytes_ += static_cast<uint64_t>(w);
  }
}

void SpillFile::flush() {
  if (buffer_.empty()) return;
  write_out(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void SpillFile::finish_writing() {
  flush();
  std::vector<char>().swap(buffer_);
  buffer_capacity_ = 0;
}

template <typename RowAt>
void SpillFile::append_rows(const Batch& batch, size_t n, RowAt row_at) {
  if (n == 0) return;
  HS_ASSERT(batch.columns.size() == types_.size(), "spill: batch has other columns than the file");
  if (buffer_capacity_ == 0) {  // written again after finish_writing()
    buffer_capacity_ = buffer_bytes_;
    buffer_.reserve(buffer_capacity_);
  }
  // The chunk is appended to the buffer, which goes out once it holds buffer_capacity_ bytes (one batch of
  // wide rows may make it larger for a moment: callers append at most kBatchSize rows at a time).
  std::vector<char>& b = buffer_;
  put<uint32_t>(b, static_cast<uint32_t>(n));
  for (const ColumnVector& c : batch.columns) {
    const bool nulls = c.has_nulls();
    put<uint8_t>(b, nulls ? 1 : 0);
    if (nulls)
      for (size_t i = 0; i < n; ++i) b.push_back(static_cast<char>(c.nulls[row_at(i)]));
    switch (c.type.physical()) {
      case PhysicalKind::Int64:
        for (size_t i = 0; i < n; ++i) put<int64_t>(b, c.ints[row_at(i)]);
        break;
      case PhysicalKind::Double:
        for (size_t i = 0; i < n; ++i) put<double>(b, c.dbls[row_at(i)]);
        break;
      case PhysicalKind::String:
        for (size_t i = 0; i < n; ++i) {
          const std::string& s = c.strs[row_at(i)];
          put<uint32_t>(b, static_cast<uint32_t>(s.size()));
          b.insert(b.end(), s.begin(), s.end());
        }
        break;
    }
  }
  rows_ += n;
  if (b.size() >= buffer_capacity_) {
    write_out(b.data(), b.size());
    b.clear();
    if (b.capacity() > 2 * buffer_capacity_) {
      b.shrink_to_fit();
      b.reserve(buffer_capacity_);
    }
  }
}

// Chunks hold at most kBatchSize rows, so that a reader's batches do too.
void SpillFile::append(const Batch& batch) {
  for (size_t at = 0; at < batch.rows; at += kBatchSize)
    append_rows(batch, std::min(kBatchSize, batch.rows - at), [at](size_t i) { return at + i; });
}

void SpillFile::append(const Batch& batch, const uint32_t* sel, size_t n) {
  for (size_t at = 0; at < n; at += kBatchSize)
    append_rows(batch, std::min(kBatchSize, n - at), [sel, at](size_t i) { return static_cast<size_t>(sel[at + i]); });
}

bool SpillFile::Reader::ensure(size_t n) {
  if (buf_.size() - pos_ >= n) return true;
  // Keep the unread tail, then read as much as the buffer (or the request) holds.
  buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(pos_));
  offset_ += pos_;
  pos_ = 0;
  const uint64_t file_end = file_->file_bytes_;
  while (buf_.size() < n) {
    const uint64_t at = offset_ + buf_.size();
    if (at >= file_end) return false;
    const size_t want = static_cast<size_t>(std::min<uint64_t>(std::max(capacity_, n) - buf_.size(), file_end - at));
    const size_t old = buf_.size();
    buf_.resize(old + want);
    buf_.resize(old + read_at(at, buf_.data() + old, want));
  }
  return true;
}

size_t SpillFile::Reader::read_at(uint64_t at, char* dst, size_t n) const {
  const auto& extents = file_->extents_;
  // The extent holding byte `at`: the last one starting at or before it.
  auto e = std::upper_bound(extents.begin(), extents.end(), at,
                            [](uint64_t a, const Extent& x) { return a < x.logical; });
  HS_ASSERT(e != extents.begin(), "spill: a read before the first extent");
  --e;
  const uint64_t into = at - e->logical;
  HS_ASSERT(into < e->bytes, "spill: a read past the extents");
  n = static_cast<size_t>(std::min<uint64_t>(n, e->bytes - into));
  for (;;) {
    ssize_t r = ::pread(file_->backing_->fd(), dst, n, static_cast<off_t>(e->offset + into));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) io_error("cannot read back", file_->backing_->dir(), r < 0 ? errno : EIO);
    return static_cast<size_t>(r);
  }
}

bool SpillFile::Reader::next(Batch& out) {
  out.columns.assign(file_->types_.size(), ColumnVector());
  for (size_t c = 0; c < out.columns.size(); ++c) out.columns[c].type = file_->types_[c];
  out.rows = 0;
  auto take = [this](void* dst, size_t n) {
    if (!ensure(n))
      throw Error(ErrorCode::IO_ERROR, fmt::format("spilling to '{}': a chunk is cut short", file_->backing_->dir()));
    std::memcpy(dst, buf_.data() + pos_, n);
    pos_ += n;
  };
  while (out.rows < kBatchSize && ensure(sizeof(uint32_t))) {
    uint32_t n;
    std::memcpy(&n, buf_.data() + pos_, sizeof n);
    if (out.rows > 0 && out.rows + n > kBatchSize) break;  // the next batch starts with this chunk
    pos_ += sizeof n;
    for (ColumnVector& c : out.columns) {
      uint8_t has_nulls;
      take(&has_nulls, 1);
      if (has_nulls) {
        if (c.nulls.empty()) c.nulls.assign(out.rows, 0);
        const size_t at = c.nulls.size();
        c.nulls.resize(at + n);
        take(c.nulls.data() + at, n);
      } else if (!c.nulls.empty()) {
        c.nulls.resize(c.nulls.size() + n, 0);
      }
      switch (c.type.physical()) {
        case PhysicalKind::Int64: {
          const size_t at = c.ints.size();
          c.ints.resize(at + n);
          take(c.ints.data() + at, n * sizeof(int64_t));
          break;
        }
        case PhysicalKind::Double: {
          const size_t at = c.dbls.size();
          c.dbls.resize(at + n);
          take(c.dbls.data() + at, n * sizeof(double));
          break;
        }
        case PhysicalKind::String:
          for (uint32_t i = 0; i < n; ++i) {
            uint32_t len;
            take(&len, sizeof len);
            std::string s(len, '\0');
            if (len) take(s.data(), len);
            c.strs.push_back(std::move(s));
          }
          break;
      }
    }
    out.rows += n;
  }
  return out.rows > 0;
}

int spill_partition_of(uint64_t hash, int level, int fanout) {
  const uint64_t mixed = static_cast<uint64_t>(
      hash_int64(static_cast<int64_t>(hash ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(level + 1)))));
  return static_cast<int>((mixed >> 32) & static_cast<uint64_t>(fanout - 1));
}

size_t spill_buffer_bytes(int64_t limit, int files) {
  const int64_t share = limit / 64 / std::max(files, 1);
  const int64_t floor = std::clamp<int64_t>(limit / 256, static_cast<int64_t>(kSpillMinBufferBytes), 4 << 10);
  return static_cast<size_t>(std::clamp<int64_t>(share, floor, 64 << 10));
}

}  // namespace hindsight
