#include "planner/optimizer/stats/statistics_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <xxhash.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "planner/storage/column_codec.hpp"
#include "planner/storage/temp_files.hpp"

namespace hindsight {

// Layout of a .stats file (integers and doubles in host byte order, i.e. little-endian on every supported
// machine; strings are u32 length + bytes):
//   magic "HSSTATS1" | u32 format version | u32 reserved (0)
//   | string table | u64 data_version | u64 row_count | u32 column count
//   | per column: string name | type | u64 rows | u64 null_count | f64 distinct
//                 | u8 flags (1 distinct_exact, 2 sampled, 4 has min, 8 has max) | [value min] | [value max]
//                 | u32 histogram buckets, each: value lower | value upper | f64 count | f64 distinct
//                 | u32 most common values, each: value | u64 rows
//                 | u32 pattern sample values, each: string
//   | u32 column set count | per column set: u32 column count | string name per column | f64 distinct
//   | u64 filter sample rows | when not 0, per column (as many as above, in order): that many values
//   | u64 XXH3-64 of everything before it.
// type = u8 TypeId | u8 precision | u8 scale; value = type | u8 is_null | i64 i | f64 d | string s (every field
// of the Value, so any Value round-trips bit for bit).

namespace {

constexpr char kMagic[8] = {'H', 'S', 'S', 'T', 'A', 'T', 'S', '1'};
constexpr uint8_t kDistinctExact = 1, kSampled = 2, kHasMin = 4, kHasMax = 8;

class Writer {
 public:
  template <class T>
  void put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void str(const std::string& s) {
    put(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void type(const DataType& t) {
    put(static_cast<uint8_t>(t.id));
    put(t.precision);
    put(t.scale);
  }
  void value(const Value& v) {
    type(v.type);
    put(static_cast<uint8_t>(v.is_null ? 1 : 0));
    put(v.i);
    put(v.d);
    str(v.s);
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const char* begin, const char* end) : in_(begin, end) {}
  template <class T>
  T get() {
    return in_.get<T>();
  }
  std::string str() {
    const auto n = in_.get<uint32_t>();
    return std::string(in_.take(n), n);
  }
  DataType type() {
    DataType t;
    const auto id = in_.get<uint8_t>();
    if (id > static_cast<uint8_t>(TypeId::Date)) throw CorruptData(fmt::format("unknown type id {}", id));
    t.id = static_cast<TypeId>(id);
    t.precision = in_.get<uint8_t>();
    t.scale = in_.get<uint8_t>();
    return t;
  }
  Value value() {
    Value v;
    v.type = type();
    const auto is_null = in_.get<uint8_t>();
    if (is_null > 1) throw CorruptData("bad NULL flag");
    v.is_null = is_null != 0;
    v.i = in_.get<int64_t>();
    v.d = in_.get<double>();
    v.s = str();
    return v;
  }
  bool at_end() const { return in_.at_end(); }

 private:
  ByteCursor in_;
};

TableStatistics decode_payload(Reader& in) {
  TableStatistics stats;
  stats.table = in.str();
  stats.data_version = in.get<uint64_t>();
  stats.row_count = in.get<uint64_t>();
  const auto columns = in.get<uint32_t>();
  for (uint32_t c = 0; c < columns; ++c) {  // no reserve(): counts are only trusted as far as bytes follow
    ColumnStatistics cs;
    cs.name = in.str();
    cs.type = in.type();
    cs.rows = in.get<uint64_t>();
    cs.null_count = in.get<uint64_t>();
    if (cs.null_count > cs.rows) throw CorruptData("more NULLs than rows");
    cs.distinct = in.get<double>();
    const auto flags = in.get<uint8_t>();
    if (flags & ~(kDistinctExact | kSampled | kHasMin | kHasMax)) throw CorruptData("bad column flags");
    cs.distinct_exact = flags & kDistinctExact;
    cs.sampled = flags & kSampled;
    if (flags & kHasMin) cs.min = in.value();
    if (flags & kHasMax) cs.max = in.value();
    const auto buckets = in.get<uint32_t>();
    for (uint32_t b = 0; b < buckets; ++b) {
      HistogramBucket bucket;
      bucket.lower = in.value();
      bucket.upper = in.value();
      bucket.count = in.get<double>();
      bucket.distinct = in.get<double>();
      cs.histogram.buckets.push_back(std::move(bucket));
    }
    const auto mcvs = in.get<uint32_t>();
    for (uint32_t m = 0; m < mcvs; ++m) {
      Value v = in.value();
      const auto count = in.get<uint64_t>();
      cs.most_common.emplace_back(std::move(v), count);
    }
    const auto samples = in.get<uint32_t>();
    for (uint32_t k = 0; k < samples; ++k) cs.pattern_sample.push_back(in.str());
    stats.columns.push_back(std::move(cs));
  }
  const auto sets = in.get<uint32_t>();
  for (uint32_t k = 0; k < sets; ++k) {
    ColumnSetStatistics set;
    const auto names = in.get<uint32_t>();
    for (uint32_t n = 0; n < names; ++n) set.columns.push_back(in.str());
    set.distinct = in.get<double>();
    if (set.columns != column_set_key(set.columns)) throw CorruptData("a column set not in its one spelling");
    stats.column_sets.push_back(std::move(set));
  }
  const uint64_t sample_rows = in.get<uint64_t>();
  if (sample_rows > 0) for (const ColumnStatistics& cs : stats.columns) {
    ColumnVector kept(cs.type);
    for (uint64_t r = 0; r < sample_rows; ++r) {
      Value v = in.value();
      if (!v.is_null && v.type.physical() != cs.type.physical()) throw CorruptData("a sampled value of another type");
      kept.append_value(v);
    }
    stats.filter_sample.push_back(std::move(kept));
  }
  if (!in.at_end()) throw CorruptData("unexpected bytes after the filter sample");
  return stats;
}

}  // namespace

std::string statistics_directory(const std::string& data_dir) {
  if (data_dir.empty()) return {};
  return (std::filesystem::path(data_dir) / ".hindsight" / "stats").string();
}

std::string statistics_file_path(const std::string& directory, const std::string& table) {
  std::string name;
  for (char ch : table) {
    const auto c = static_cast<unsigned char>(ch);
    const auto low = static_cast<unsigned char>(std::tolower(c));
    if ((low >= 'a' && low <= 'z') || (low >= '0' && low <= '9') || low == '_' || low == '-') {
      name += static_cast<char>(low);
    } else {
      name += fmt::format("%{:02X}", c);
    }
  }
  return (std::filesystem::path(directory) / (name + ".stats")).string();
}

std::string encode_table_statistics(const TableStatistics& stats) {
  Writer w;
  w.bytes().append(kMagic, sizeof kMagic);
  w.put(kStatisticsFileVersion);
  w.put(uint32_t{0});
  w.str(stats.table);
  w.put(stats.data_version);
  w.put(stats.row_count);
  w.put(static_cast<uint32_t>(stats.columns.size()));
  for (const ColumnStatistics& cs : stats.columns) {
    w.str(cs.name);
    w.type(cs.type);
    w.put(cs.rows);
    w.put(cs.null_count);
    w.put(cs.distinct);
    w.put(static_cast<uint8_t>((cs.distinct_exact ? kDistinctExact : 0) | (cs.sampled ? kSampled : 0) |
                               (cs.min ? kHasMin : 0) | (cs.max ? kHasMax : 0)));
    if (cs.min) w.value(*cs.min);
    if (cs.max) w.value(*cs.max);
    w.put(static_cast<uint32_t>(cs.histogram.buckets.size()));
    for (const HistogramBucket& b : cs.histogram.buckets) {
      w.value(b.lower);
      w.value(b.upper);
      w.put(b.count);
      w.put(b.distinct);
    }
    w.put(static_cast<uint32_t>(cs.most_common.size()));
    for (const auto& [value, count] : cs.most_common) {
      w.value(value);
      w.put(count);
    }
    w.put(static_cast<uint32_t>(cs.pattern_sample.size()));
    for (const std::string& v : cs.pattern_sample) w.str(v);
  }
  w.put(static_cast<uint32_t>(stats.column_sets.size()));
  for (const ColumnSetStatistics& set : stats.column_sets) {
    w.put(static_cast<uint32_t>(set.columns.size()));
    for (const std::string& name : set.columns) w.str(name);
    w.put(set.distinct);
  }
  const uint64_t sample_rows = stats.filter_sample_rows();
  w.put(sample_rows);
  for (const ColumnVector& kept : stats.filter_sample)
    for (uint64_t r = 0; r < sample_rows; ++r) w.value(kept.get(r));
  const uint64_t digest = XXH3_64bits(w.bytes().data(), w.bytes().size());
  w.put(digest);
  return std::move(w.bytes());
}

std::optional<TableStatistics> decode_table_statistics(const std::string& bytes, std::string& problem) {
  constexpr size_t kHeader = sizeof kMagic + 8;
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    problem = "not a statistics file";
    return std::nullopt;
  }
  if (bytes.size() >= sizeof kMagic + 4) {
    uint32_t version;
    std::memcpy(&version, bytes.data() + sizeof kMagic, sizeof version);
    if (version != kStatisticsFileVersion) {
      problem = fmt::format("format version {}, expected {}", version, kStatisticsFileVersion);
      return std::nullopt;
    }
  }
  if (bytes.size() < kHeader + 8) {
    problem = "truncated";
    return std::nullopt;
  }
  uint64_t stored;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, sizeof stored);
  if (XXH3_64bits(bytes.data(), bytes.size() - 8) != stored) {
    problem = "corrupt or truncated (checksum mismatch)";
    return std::nullopt;
  }
  try {
    Reader in(bytes.data() + kHeader, bytes.data() + bytes.size() - 8);
    return decode_payload(in);
  } catch (const CorruptData& e) {
    problem = fmt::format("corrupt ({})", e.what());
  } catch (const std::bad_alloc&) {
    problem = "corrupt (implausible size)";
  } catch (const std::length_error&) {
    problem = "corrupt (implausible size)";
  }
  return std::nullopt;
}

StatisticsFileRead read_statistics_file(const std::string& path) {
  StatisticsFileRead out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  if (!in || !(bytes << in.rdbuf())) {
    // An empty file makes operator<< fail too: report it as what it is.
    out.problem = std::filesystem::file_size(path, ec) == 0 && !ec ? "empty file" : "cannot be read";
    return out;
  }
  out.stats = decode_table_statistics(bytes.str(), out.problem);
  return out;
}

size_t remove_dead_statistics_temp_files(const std::string& directory) {
  return directory.empty() ? 0 : remove_dead_temp_files(directory, ".stats");
}

bool write_statistics_file(const std::string& path, const TableStatistics& stats, std::string& problem) {
  const std::string bytes = encode_table_statistics(stats);
  std::error_code ec;
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) {
    problem = fmt::format("cannot create '{}': {}", dir.string(), ec.message());
    return false;
  }
  PendingTempFile pending(path);
  const std::string& tmp = pending.path();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    problem = fmt::format("cannot create '{}': {}", tmp, std::strerror(errno));
    return false;
  }
  const char* p = bytes.data();
  size_t left = bytes.size();
  int err = 0;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err = n < 0 ? errno : EIO;
      break;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (!err && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && !err) err = errno;
  if (!err && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err) {
    ::unlink(tmp.c_str());
    problem = fmt::format("cannot write '{}': {}", path, std::strerror(err));
    return false;
  }
  return true;
}

}  // namespace hindsight
