#include "planner/storage/table_cache.hpp"

#include <algorithm>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "planner/common/hashing.hpp"
#include "planner/storage/column_codec.hpp"
#include "planner/storage/temp_files.hpp"

namespace hindsight {

// Layout of a .hsc file (all integers little-endian):
//   magic "HSTCACHE" | u32 format version | u32 reserved (0)
//   | source stamp: u64 size | i64 mtime (ns) | i64 ctime (ns) | u64 inode | u64 device
//   | u32 schema length | schema fingerprint bytes | u64 row count | u32 bucket count
//   | per bucket: u64 rows, then per column an encode_column block
//   | u64 XXH3-64 of everything before it.

namespace {

constexpr char kMagic[8] = {'H', 'S', 'T', 'C', 'A', 'C', 'H', 'E'};

const char* kind_word(DistributionKind k) {
  switch (k) {
    case DistributionKind::Hash:
      return "hash";
    case DistributionKind::Replicated:
      return "replicated";
    case DistributionKind::Random:
      return "random";
  }
  return "?";
}

/// Buffered file writer that also hashes what it writes (whole buffers at a time: columns arrive in many small
/// pieces, one per string).
class HashingWriter {
 public:
  explicit HashingWriter(int fd) : fd_(fd), state_(XXH3_createState()) {
    XXH3_64bits_reset(state_);
    buf_.reserve(kBuffer);
  }
  ~HashingWriter() { XXH3_freeState(state_); }
  void put(const void* data, size_t len) {
    if (buf_.size() + len > kBuffer) flush();
    if (len > kBuffer) {
      XXH3_64bits_update(state_, data, len);
      return raw(static_cast<const char*>(data), len);
    }
    buf_.insert(buf_.end(), static_cast<const char*>(data), static_cast<const char*>(data) + len);
  }
  /// Flushes and appends the digest (not itself hashed).
  void finish() {
    flush();
    uint64_t digest = XXH3_64bits_digest(state_);
    raw(reinterpret_cast<const char*>(&digest), sizeof digest);
  }
  bool ok() const { return ok_; }

 private:
  static constexpr size_t kBuffer = size_t{4} << 20;
  void flush() {
    XXH3_64bits_update(state_, buf_.data(), buf_.size());
    raw(buf_.data(), buf_.size());
    buf_.clear();
  }
  void raw(const char* p, size_t len) {
    while (ok_ && len > 0) {
      ssize_t n = ::write(fd_, p, len);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ok_ = false;
        return;
      }
      p += n;
      len -= static_cast<size_t>(n);
    }
  }
  int fd_;
  XXH3_state_t* state_;
  std::vector<char> buf_;
  bool ok_ = true;
};

/// A read-only private mapping of a whole file (no copy into anonymous memory). Read front to back, it
/// can give back the pages already read (release_before), so that at most a window of the file is
/// resident beside the columns decoded from it.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      size_ = static_cast<size_t>(st.st_size);
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const char*>(p);
        ::madvise(p, size_, MADV_SEQUENTIAL);
      }
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  bool ok() const { return data_ != nullptr; }
  const char* data() const { return data_; }
  size_t size() const { return size_; }
  /// Drops the resident pages wholly before `p` (they are read again from the page cache if touched).
  void release_before(const char* p) {
    const size_t page = 4096;
    size_t n = static_cast<size_t>(p - data_) / page * page;
    if (n > released_) {
      ::madvise(const_cast<char*>(data_) + released_, n - released_, MADV_DONTNEED);
      released_ = n;
    }
  }
  /// Starts again from the beginning (after a first pass over the whole file).
  void rewind() { released_ = 0; }

 private:
  size_t released_ = 0;
  const char* data_ = nullptr;
  size_t size_ = 0;
};

std::optional<Table> decode_table(MappedFile& data, const TableDef& def, const FileStamp& source,
                                  LoadGuard* guard) {
  if (data.size() < sizeof kMagic + 8) return std::nullopt;
  ByteCursor header(data.data(), data.data() + data.size() - 8);
  if (std::memcmp(header.take(sizeof kMagic), kMagic, sizeof kMagic) != 0) return std::nullopt;
  if (header.get<uint32_t>() != kTableCacheVersion) return std::nullopt;
  header.get<uint32_t>();
  FileStamp stamp;
  stamp.size = header.get<uint64_t>();
  stamp.mtime_ns = header.get<int64_t>();
  stamp.ctime_ns = header.get<int64_t>();
  stamp.inode = header.get<uint64_t>();
  stamp.device = header.get<uint64_t>();
  if (!(stamp == source)) return std::nullopt;
  uint32_t schema_len = header.get<uint32_t>();
  std::string_view schema(header.take(schema_len), schema_len);
  if (schema != schema_fingerprint(def)) return std::nullopt;

  // Only now is the (possibly large) payload worth checksumming.
  uint64_t stored;
  std::memcpy(&stored, data.data() + data.size() - 8, sizeof stored);
  {
    XXH3_state_t* state = XXH3_createState();
    if (!state) return std::nullopt;
    XXH3_64bits_reset(state);
    constexpr size_t kChunk = 8 << 20;
    for (size_t at = 0; at < data.size() - 8; at += kChunk) {
      const size_t n = std::min(kChunk, data.size() - 8 - at);
      XXH3_64bits_update(state, data.data() + at, n);
      data.release_before(data.data() + at + n);
    }
    const uint64_t digest = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    if (digest != stored) return std::nullopt;
    data.rewind();
  }

  ByteCursor& in = header;
  Table t;
  t.def = def;
  t.row_count = in.get<uint64_t>();
  uint32_t nb = in.get<uint32_t>();
  uint32_t expected =
      def.distribution == DistributionKind::Replicated ? 1 : static_cast<uint32_t>(std::max(def.buckets, 1));
  if (nb != expected) return std::nullopt;
  uint64_t total = 0;
  int64_t bytes = 0;
  t.buckets.resize(nb);
  for (auto& bucket : t.buckets) {
    uint64_t rows = in.get<uint64_t>();
    if (rows > t.row_count) return std::nullopt;
    total += rows;
    for (const auto& c : def.columns) {
      bucket.emplace_back(c.type);
      decode_column(in, static_cast<size_t>(rows), bucket.back());
      data.release_before(in.position());
      if (guard) guard->check(def.name, bytes += static_cast<int64_t>(bucket.back().allocated_bytes()));
    }
  }
  if (total != t.row_count || !in.at_end()) return std::nullopt;
  t.data_version = data_version_of(source, def);
  return t;
}

}  // namespace

bool stat_file(const std::string& path, FileStamp& out) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  out.size = static_cast<uint64_t>(st.st_size);
  out.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  out.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec;
  out.inode = static_cast<uint64_t>(st.st_ino);
  out.device = static_cast<uint64_t>(st.st_dev);
  return true;
}

std::string schema_fingerprint(const TableDef& def) {
  std::string s;
  for (const auto& c : def.columns)
    s += fmt::format("{} {}{};", c.name, c.type.to_string(), c.nullable ? "" : " NOT NULL");
  s += fmt::format("|{}(", kind_word(def.distribution));
  for (const auto& c : def.distribution_columns) s += c + ",";
  s += fmt::format(") {}", def.distribution == DistributionKind::Replicated ? 1 : def.buckets);
  return s;
}

uint64_t data_version_of(const FileStamp& stamp, const TableDef& def) {
  uint64_t h = hash_combine(hash_int64(static_cast<int64_t>(stamp.size)), hash_int64(stamp.mtime_ns));
  h = hash_combine(h, hash_int64(stamp.ctime_ns));
  h = hash_combine(h, hash_int64(static_cast<int64_t>(stamp.inode)));
  h = hash_combine(h, hash_int64(static_cast<int64_t>(stamp.device)));
  return hash_combine(h, hash_bytes(schema_fingerprint(def)));
}

std::string cache_path_for(const std::string& csv_path) { return csv_path + ".hsc"; }

std::optional<Table> read_table_cache(const std::string& cache_path, const TableDef& def, const FileStamp& source,
                                      LoadGuard* guard) {
  try {
    MappedFile data(cache_path);
    if (!data.ok()) return std::nullopt;
    return decode_table(data, def, source, guard);
  } catch (const CorruptData&) {
    return std::nullopt;
  } catch (const std::bad_alloc&) {
    return std::nullopt;
  } catch (const std::length_error&) {
    return std::nullopt;
  }
}

bool write_table_cache(const std::string& cache_path, const Table& table, const FileStamp& source) {
  PendingTempFile pending(cache_path);
  const std::string& tmp = pending.path();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok;
  {
    HashingWriter w(fd);
    auto put = [&](const void* p, size_t n) { w.put(p, n); };
    put(kMagic, sizeof kMagic);
    uint32_t version = kTableCacheVersion, reserved = 0;
    put(&version, 4);
    put(&reserved, 4);
    put(&source.size, 8);
    put(&source.mtime_ns, 8);
    put(&source.ctime_ns, 8);
    put(&source.inode, 8);
    put(&source.device, 8);
    std::string schema = schema_fingerprint(table.def);
    uint32_t len = static_cast<uint32_t>(schema.size());
    put(&len, 4);
    put(schema.data(), schema.size());
    put(&table.row_count, 8);
    uint32_t nb = static_cast<uint32_t>(table.buckets.size());
    put(&nb, 4);
    ByteSink sink = put;
    for (const auto& bucket : table.buckets) {
      uint64_t rows = bucket.empty() ? 0 : bucket[0].size();
      put(&rows, 8);
      for (const auto& col : bucket) encode_column(col, sink);
    }
    w.finish();
    ok = w.ok();
  }
  ok = ok && ::fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  if (ok) ok = ::rename(tmp.c_str(), cache_path.c_str()) == 0;
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

}  // namespace hindsight
