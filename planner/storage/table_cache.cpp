#include "planner/storage/table_cache.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>
#include <vector>

#include "planner/common/error.hpp"
#include "planner/common/hashing.hpp"
#include "planner/storage/column_codec.hpp"
#include "planner/storage/temp_files.hpp"

namespace hindsight {

// Layout of a .hsc file, format 3 (all integers little-endian):
//   header:
//     magic "HSTCACHE" | u32 format version | u32 reserved (0)
//     | source stamp: u64 size | i64 mtime (ns) | i64 ctime (ns) | u64 inode | u64 device
//     | u32 schema length | schema fingerprint bytes
//     | u64 row count | u32 bucket count B | u32 column count C
//     | B x u64 rows of the bucket
//     | C x B block entries, column-major (column 0 of buckets 0..B-1, then column 1...):
//         u64 offset | u64 length | u64 XXH3-64 of the block
//     | u64 XXH3-64 of the header before it
//   then the blocks, in the same order, back to back from the end of the header to the end of the file: each is
//   one column of one bucket as encode_column writes it.
// Opening reads the header alone; a column is read (pread, one block per bucket) and checked when a query
// needs it.

namespace {

constexpr char kMagic[8] = {'H', 'S', 'T', 'C', 'A', 'C', 'H', 'E'};
/// magic, version, reserved, stamp, schema length.
constexpr size_t kFixedHeader = 8 + 4 + 4 + 5 * 8 + 4;

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

struct Block {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t checksum = 0;
};

/// Reads exactly `len` bytes at `offset`; false on a short read or an error.
bool pread_all(int fd, char* dst, size_t len, uint64_t offset) {
  while (len > 0) {
    ssize_t n = ::pread(fd, dst, len, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    dst += n;
    len -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}

/// Buffered writer that tracks its file offset and hashes what it writes, block by block.
class BlockWriter {
 public:
  explicit BlockWriter(int fd) : fd_(fd), state_(XXH3_createState()) { buf_.reserve(kBuffer); }
  ~BlockWriter() { XXH3_freeState(state_); }
  BlockWriter(const BlockWriter&) = delete;
  BlockWriter& operator=(const BlockWriter&) = delete;

  void begin_block() {
    XXH3_64bits_reset(state_);
    block_.offset = offset_;
  }
  void put(const void* data, size_t len) {
    XXH3_64bits_update(state_, data, len);
    offset_ += len;
    if (buf_.size() + len > kBuffer) flush();
    if (len > kBuffer) return raw(static_cast<const char*>(data), len);
    buf_.insert(buf_.end(), static_cast<const char*>(data), static_cast<const char*>(data) + len);
  }
  Block end_block() {
    block_.length = offset_ - block_.offset;
    block_.checksum = XXH3_64bits_digest(state_);
    return block_;
  }
  /// Skips `len` bytes (written later with pwrite_at).
  void skip(size_t len) {
    flush();
    offset_ += len;
    if (ok_ && ::lseek(fd_, static_cast<off_t>(offset_), SEEK_SET) < 0) ok_ = false;
  }
  void flush() {
    raw(buf_.data(), buf_.size());
    buf_.clear();
  }
  void pwrite_at(uint64_t offset, const std::vector<char>& bytes) {
    const char* p = bytes.data();
    size_t len = bytes.size();
    while (ok_ && len > 0) {
      ssize_t n = ::pwrite(fd_, p, len, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ok_ = false;
        return;
      }
      p += n;
      len -= static_cast<size_t>(n);
      offset += static_cast<uint64_t>(n);
    }
  }
  bool ok() const { return ok_ && state_ != nullptr; }

 private:
  static constexpr size_t kBuffer = size_t{4} << 20;
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
  uint64_t offset_ = 0;
  Block block_;
  bool ok_ = true;
};

/// The columns of one opened cache file, read on demand (Table::load_columns calls it under the table's lock, so
/// one call at a time). Keeps the file open: a cache replaced meanwhile (rename) does not change what it reads.
class CachedColumns : public ColumnSource {
 public:
  CachedColumns(int fd, std::string path, TableDef def, std::vector<uint64_t> bucket_rows, std::vector<Block> blocks,
                CacheFallback fallback)
      : fd_(fd),
        path_(std::move(path)),
        def_(std::move(def)),
        bucket_rows_(std::move(bucket_rows)),
        blocks_(std::move(blocks)),
        fallback_(std::move(fallback)) {}
  ~CachedColumns() override { ::close(fd_); }
  CachedColumns(const CachedColumns&) = delete;
  CachedColumns& operator=(const CachedColumns&) = delete;

  std::vector<ColumnVector> read_column(size_t c, LoadGuard* guard) override {
    if (!whole_) {
      std::string problem;
      if (auto parts = read_cached(c, guard, problem)) return std::move(*parts);
      if (!fallback_)
        throw Error(ErrorCode::IO_ERROR, fmt::format("binary cache '{}' of table '{}' is damaged ({}): delete it",
                                                     path_, def_.name, problem));
      warn_table_cache(fmt::format("binary cache '{}' is damaged ({}); reading table '{}' from its CSV file",
                                   path_, problem, def_.name));
      whole_ = std::make_unique<Table>(fallback_());
      whole_->load_all_columns();
      HS_ASSERT(whole_->buckets.size() == bucket_rows_.size(), "fallback table has another bucket count");
    }
    std::vector<ColumnVector> parts;
    for (auto& bucket : whole_->buckets) {
      parts.push_back(std::move(bucket.at(c)));
      if (guard) guard->add(def_.name, static_cast<int64_t>(parts.back().allocated_bytes()));
    }
    return parts;
  }

 private:
  /// Column `c` of every bucket from the file; nullopt (with `problem` set) when a block is short or corrupt.
  std::optional<std::vector<ColumnVector>> read_cached(size_t c, LoadGuard* guard, std::string& problem) {
    const size_t nb = bucket_rows_.size();
    const ColumnDef& column = def_.columns.at(c);
    std::vector<ColumnVector> parts;
    parts.reserve(nb);
    std::vector<char> buffer;
    for (size_t b = 0; b < nb; ++b) {
      const Block& block = blocks_[c * nb + b];
      try {
        buffer.resize(static_cast<size_t>(block.length));
      } catch (const std::exception&) {
        problem = fmt::format("column '{}' bucket {}: block of {} bytes", column.name, b, block.length);
        return std::nullopt;
      }
      if (!pread_all(fd_, buffer.data(), buffer.size(), block.offset)) {
        problem = fmt::format("column '{}' bucket {}: short read", column.name, b);
        return std::nullopt;
      }
      if (XXH3_64bits(buffer.data(), buffer.size()) != block.checksum) {
        problem = fmt::format("column '{}' bucket {}: checksum mismatch", column.name, b);
        return std::nullopt;
      }
      parts.emplace_back(column.type);
      try {
        ByteCursor in(buffer.data(), buffer.data() + buffer.size());
        decode_column(in, static_cast<size_t>(bucket_rows_[b]), parts.back());
        if (!in.at_end()) throw CorruptData("trailing bytes");
      } catch (const CorruptData& e) {
        problem = fmt::format("column '{}' bucket {}: {}", column.name, b, e.what());
        return std::nullopt;
      }
      if (guard) guard->add(def_.name, static_cast<int64_t>(parts.back().allocated_bytes()));
    }
    return parts;
  }

  int fd_;
  std::string path_;
  TableDef def_;
  std::vector<uint64_t> bucket_rows_;
  std::vector<Block> blocks_;
  CacheFallback fallback_;
  std::unique_ptr<Table> whole_;  ///< the table read from the CSV, once a block was found damaged
};

/// Parses and checks the header in `fd` (a file of `file_size` bytes). nullopt: not a usable cache (`problem` set
/// when it is damaged rather than stale).
std::optional<Table> open_cache(int fd, uint64_t file_size, const std::string& path, const TableDef& def,
                                const FileStamp& source, CacheFallback& fallback, std::string& problem) {
  if (file_size < kFixedHeader) {
    if (file_size > 0) problem = "truncated header";
    return std::nullopt;
  }
  std::vector<char> header(kFixedHeader);
  if (!pread_all(fd, header.data(), header.size(), 0)) {
    problem = "unreadable header";
    return std::nullopt;
  }
  if (std::memcmp(header.data(), kMagic, sizeof kMagic) != 0) {
    problem = "not a binary cache";
    return std::nullopt;
  }
  ByteCursor fixed(header.data() + sizeof kMagic, header.data() + header.size());
  if (fixed.get<uint32_t>() != kTableCacheVersion) return std::nullopt;  // another format: rewritten, no warning
  fixed.get<uint32_t>();
  FileStamp stamp;
  stamp.size = fixed.get<uint64_t>();
  stamp.mtime_ns = fixed.get<int64_t>();
  stamp.ctime_ns = fixed.get<int64_t>();
  stamp.inode = fixed.get<uint64_t>();
  stamp.device = fixed.get<uint64_t>();
  const uint32_t schema_len = fixed.get<uint32_t>();
  const std::string expected_schema = schema_fingerprint(def);
  const uint32_t nb_expected =
      def.distribution == DistributionKind::Replicated ? 1 : static_cast<uint32_t>(std::max(def.buckets, 1));
  const uint64_t nc = def.columns.size();
  // Everything up to the block table is fixed by the schema we expect; a header of another size is another schema
  // (or damaged: the checksum below would tell, but there is no need to read it).
  const uint64_t header_len = kFixedHeader + uint64_t{schema_len} + 8 + 4 + 4 + 8 * uint64_t{nb_expected} +
                              24 * uint64_t{nb_expected} * nc + 8;
  if (schema_len != expected_schema.size()) return std::nullopt;
  if (!(stamp == source)) return std::nullopt;  // stale: made from another version of the file
  if (header_len > file_size) {
    problem = "truncated header";
    return std::nullopt;
  }
  header.resize(static_cast<size_t>(header_len));
  if (!pread_all(fd, header.data() + kFixedHeader, header.size() - kFixedHeader, kFixedHeader)) {
    problem = "unreadable header";
    return std::nullopt;
  }
  uint64_t stored;
  std::memcpy(&stored, header.data() + header.size() - 8, sizeof stored);
  if (XXH3_64bits(header.data(), header.size() - 8) != stored) {
    // A schema of the same length but other text is merely stale; anything else is damage.
    if (std::string_view(header.data() + kFixedHeader, schema_len) == expected_schema) problem = "header checksum mismatch";
    return std::nullopt;
  }
  ByteCursor in(header.data() + kFixedHeader, header.data() + header.size() - 8);
  std::string_view schema(in.take(schema_len), schema_len);
  if (schema != expected_schema) return std::nullopt;

  Table t;
  t.def = def;
  t.row_count = in.get<uint64_t>();
  const uint32_t nb = in.get<uint32_t>();
  const uint32_t columns = in.get<uint32_t>();
  if (nb != nb_expected || columns != nc) {
    problem = "bucket or column count does not match the schema";
    return std::nullopt;
  }
  uint64_t total = 0;
  t.bucket_rows.resize(nb);
  for (auto& rows : t.bucket_rows) {
    rows = in.get<uint64_t>();
    if (rows > t.row_count) {
      problem = "bucket larger than the table";
      return std::nullopt;
    }
    total += rows;
  }
  if (total != t.row_count) {
    problem = "bucket rows do not add up to the row count";
    return std::nullopt;
  }
  std::vector<Block> blocks(static_cast<size_t>(nb * nc));
  uint64_t at = header_len;
  for (auto& block : blocks) {
    block.offset = in.get<uint64_t>();
    block.length = in.get<uint64_t>();
    block.checksum = in.get<uint64_t>();
    if (block.offset != at) {
      problem = "column blocks do not follow each other";
      return std::nullopt;
    }
    if (block.length > file_size - at) {
      problem = "truncated";
      return std::nullopt;
    }
    at += block.length;
  }
  if (!in.at_end()) {
    problem = "header of the wrong size";
    return std::nullopt;
  }
  if (at != file_size) {
    problem = at > file_size ? "truncated" : "trailing bytes after the last column";
    return std::nullopt;
  }
  t.buckets.resize(nb);
  t.data_version = data_version_of(source, def);
  const int dup = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (dup < 0) {
    problem = fmt::format("cannot keep the file open: {}", std::strerror(errno));
    return std::nullopt;
  }
  t.set_column_source(
      std::make_shared<CachedColumns>(dup, path, def, t.bucket_rows, std::move(blocks), std::move(fallback)));
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
                                      CacheFallback fallback, std::string* problem) {
  std::string local;
  std::string& why = problem ? *problem : local;
  why.clear();
  const int fd = ::open(cache_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::optional<Table> out;
  try {
    struct stat st {};
    if (::fstat(fd, &st) == 0) out = open_cache(fd, static_cast<uint64_t>(st.st_size), cache_path, def, source, fallback, why);
  } catch (const CorruptData& e) {
    why = e.what();
    out.reset();
  } catch (const std::bad_alloc&) {
    why = "header too large";
    out.reset();
  }
  ::close(fd);
  return out;
}

bool write_table_cache(const std::string& cache_path, const Table& table, const FileStamp& source) {
  table.load_all_columns();
  PendingTempFile pending(cache_path);
  const std::string& tmp = pending.path();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok;
  {
    const size_t nb = table.buckets.size();
    const size_t nc = table.def.columns.size();
    // The header, written last in the room left for it: its block table is known once the blocks are.
    std::vector<char> header;
    auto put = [&](const void* p, size_t n) {
      header.insert(header.end(), static_cast<const char*>(p), static_cast<const char*>(p) + n);
    };
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
    uint32_t nb32 = static_cast<uint32_t>(nb), nc32 = static_cast<uint32_t>(nc);
    put(&nb32, 4);
    put(&nc32, 4);
    for (size_t b = 0; b < nb; ++b) {
      uint64_t rows = table.rows_in_bucket(b);
      put(&rows, 8);
    }
    const size_t blocks_at = header.size();
    header.resize(blocks_at + 24 * nb * nc + 8);

    BlockWriter w(fd);
    w.skip(header.size());
    ByteSink sink = [&](const void* p, size_t n) { w.put(p, n); };
    for (size_t c = 0; c < nc; ++c)
      for (size_t b = 0; b < nb; ++b) {
        w.begin_block();
        encode_column(table.buckets[b][c], sink);
        const Block block = w.end_block();
        std::memcpy(header.data() + blocks_at + 24 * (c * nb + b), &block.offset, 8);
        std::memcpy(header.data() + blocks_at + 24 * (c * nb + b) + 8, &block.length, 8);
        std::memcpy(header.data() + blocks_at + 24 * (c * nb + b) + 16, &block.checksum, 8);
      }
    w.flush();
    const uint64_t digest = XXH3_64bits(header.data(), header.size() - 8);
    std::memcpy(header.data() + header.size() - 8, &digest, 8);
    w.pwrite_at(0, header);
    ok = w.ok();
  }
  ok = ok && ::fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  if (ok) ok = ::rename(tmp.c_str(), cache_path.c_str()) == 0;
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

void warn_table_cache(const std::string& message) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  std::cerr << "hindsight: warning: " << message << "\n";
}

}  // namespace hindsight
