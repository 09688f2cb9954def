#include "planner/storage/tpch_generator.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

#include "planner/catalog/catalog_json.hpp"
#include "planner/common/error.hpp"
#include "planner/storage/table_cache.hpp"
#include "planner/storage/tpch_context.hpp"

namespace hindsight {

namespace {

using tpch::Context;

/// A table file written under a temporary name; commit() renames it into place, destruction without commit
/// removes it.
class OutputFile {
 public:
  OutputFile(const std::string& dir, const TableDef& def) : final_(dir + "/" + def.file) {
    tmp_ = fmt::format("{}.tmp.{}", final_, ::getpid());
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error(ErrorCode::IO_ERROR, fmt::format("cannot create '{}': {}", tmp_, std::strerror(errno)));
    std::string header;
    for (const auto& c : def.columns) header += (header.empty() ? "" : ",") + c.name;
    write(header + "\n");
  }
  ~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(tmp_.c_str());
  }
  void write(const std::string& data) {
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
      ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw Error(ErrorCode::IO_ERROR, fmt::format("error writing '{}': {}", tmp_, std::strerror(errno)));
      p += n;
      left -= static_cast<size_t>(n);
    }
    bytes_ += data.size();
  }
  void commit() {
    int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0 || ::rename(tmp_.c_str(), final_.c_str()) != 0)
      throw Error(ErrorCode::IO_ERROR, fmt::format("cannot write '{}': {}", final_, std::strerror(errno)));
    committed_ = true;
    ::unlink(cache_path_for(final_).c_str());  // a stale cache would be rejected anyway; don't leave it around
  }
  const std::string& path() const { return final_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t rows = 0;

 private:
  std::string final_, tmp_;
  int fd_ = -1;
  uint64_t bytes_ = 0;
  bool committed_ = false;
};

struct ChunkOutput {
  CsvBuffer out[2];
  uint64_t rows[2] = {0, 0};
};

/// Generates chunks 0..n-1 on worker threads and hands them to `sink` in chunk order (a bounded window of
/// chunks is in flight). Output is independent of the thread count since each chunk seeds its own generator.
template <typename Gen, typename Sink>
void run_chunks(int64_t n, int thread_count, Gen gen, Sink sink) {
  unsigned workers =
      thread_count > 0 ? static_cast<unsigned>(thread_count) : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  if (n <= 1 || workers == 1) {
    for (int64_t c = 0; c < n; ++c) {
      ChunkOutput out;
      gen(c, out);
      sink(c, out);
    }
    return;
  }
  const int64_t window = 2 * static_cast<int64_t>(workers);
  std::mutex mu;
  std::condition_variable cv;
  std::map<int64_t, ChunkOutput> ready;
  int64_t next_to_take = 0, next_to_write = 0;
  bool abort = false;
  std::exception_ptr error;
  auto work = [&] {
    for (;;) {
      int64_t c;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return abort || next_to_take >= n || next_to_take < next_to_write + window; });
        if (abort || next_to_take >= n) return;
        c = next_to_take++;
      }
      ChunkOutput out;
      try {
        gen(c, out);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        abort = true;
        cv.notify_all();
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      ready.emplace(c, std::move(out));
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  // Whatever leaves this function (an exception included) first stops and joins the workers:
  // a joinable std::thread must never be destroyed.
  struct Joiner {
    std::vector<std::thread>& threads;
    std::mutex& mu;
    std::condition_variable& cv;
    bool& abort;
    ~Joiner() {
      {
        std::lock_guard<std::mutex> lock(mu);
        abort = true;
      }
      cv.notify_all();
      for (auto& t : threads)
        if (t.joinable()) t.join();
    }
  } joiner{threads, mu, cv, abort};
  for (unsigned w = 0; w < workers; ++w) {
    // The system may refuse a thread (EAGAIN under load): fewer workers produce the same bytes.
    try {
      threads.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  if (threads.empty()) {
    for (int64_t c = 0; c < n; ++c) {
      ChunkOutput out;
      gen(c, out);
      sink(c, out);
    }
    return;
  }
  for (int64_t c = 0; c < n; ++c) {
    ChunkOutput out;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return abort || ready.count(c) > 0; });
      if (abort) break;
      out = std::move(ready[c]);
      ready.erase(c);
      ++next_to_write;
      cv.notify_all();
    }
    try {
      sink(c, out);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!error) error = std::current_exception();
      abort = true;
      cv.notify_all();
      break;
    }
  }
  for (auto& t : threads) t.join();
  threads.clear();
  if (error) std::rethrow_exception(error);
}

class Generator {
 public:
  explicit Generator(const TpchOptions& opt)
      : opt_(opt), ctx_(opt), catalog_(tpch_catalog(opt.buckets)), progress_(opt.sf >= 1 && !opt.quiet) {}

  std::vector<TpchTableSummary> run() {
    std::map<std::string, std::unique_ptr<OutputFile>> files;
    for (const auto& t : catalog_.tables) files[t.name] = std::make_unique<OutputFile>(opt_.out_dir, t);
    auto& region = *files["region"];
    auto& nation = *files["nation"];
    single(region, tpch::gen_region, 5);
    single(nation, tpch::gen_nation, 25);
    chunked({files["supplier"].get()}, ctx_.suppliers,
            [&](int64_t c, ChunkOutput& o) { o.rows[0] = tpch::gen_suppliers(ctx_, c, o.out[0]); });
    chunked({files["customer"].get()}, ctx_.customers,
            [&](int64_t c, ChunkOutput& o) { o.rows[0] = tpch::gen_customers(ctx_, c, o.out[0]); });
    chunked({files["part"].get(), files["partsupp"].get()}, ctx_.parts,
            [&](int64_t c, ChunkOutput& o) { o.rows[0] = tpch::gen_parts(ctx_, c, o.out[0], o.out[1], o.rows[1]); });
    chunked({files["orders"].get(), files["lineitem"].get()}, ctx_.orders, [&](int64_t c, ChunkOutput& o) {
      o.out[0].reserve(size_t{1} << 21);
      o.out[1].reserve(size_t{6} << 20);
      o.rows[0] = tpch::gen_orders(ctx_, c, o.out[0], o.out[1], o.rows[1]);
    });

    // Tables first, catalog last: a folder with a catalog.json has complete files.
    std::vector<TpchTableSummary> summary;
    for (const auto& t : catalog_.tables) {
      auto& f = *files[t.name];
      f.commit();
      summary.push_back({t.name, f.path(), f.rows, f.bytes()});
    }
    write_catalog();
    return summary;
  }

 private:
  void single(OutputFile& file, void (*gen)(const Context&, CsvBuffer&), uint64_t rows) {
    CsvBuffer buf;
    gen(ctx_, buf);
    file.write(buf.data());
    file.rows = rows;
  }

  template <typename Gen>
  void chunked(std::vector<OutputFile*> files, int64_t rows, Gen gen) {
    auto t0 = std::chrono::steady_clock::now();
    int64_t chunks = (rows + tpch::kChunkRows - 1) / tpch::kChunkRows;
    int last_decile = 0;
    run_chunks(chunks, opt_.threads, gen, [&](int64_t c, ChunkOutput& o) {
      for (size_t k = 0; k < files.size(); ++k) {
        files[k]->write(o.out[k].data());
        files[k]->rows += o.rows[k];
      }
      int decile = static_cast<int>((c + 1) * 10 / chunks);
      if (progress_ && chunks >= 20 && decile > last_decile && decile < 10)
        fmt::print(stderr, "gen: {} {}%\n", label(files), decile * 10);
      last_decile = decile;
    });
    if (progress_) {
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      for (auto* f : files)
        fmt::print(stderr, "gen: {} done: {} rows, {:.1f} MB ({:.1f} s)\n", f->path(), f->rows,
                   static_cast<double>(f->bytes()) / 1e6, secs);
    }
  }

  static std::string label(const std::vector<OutputFile*>& files) {
    std::string s;
    for (auto* f : files) s += (s.empty() ? "" : "+") + std::filesystem::path(f->path()).stem().string();
    return s;
  }

  void write_catalog() {
    std::string path = opt_.out_dir + "/catalog.json";
    std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
    std::string text = catalog_to_json(catalog_);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ok = fd >= 0 && ::close(fd) == 0 && ok;
    if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
      ::unlink(tmp.c_str());
      throw Error(ErrorCode::IO_ERROR, fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    }
  }

  const TpchOptions& opt_;
  Context ctx_;
  Catalog catalog_;
  bool progress_;
};

}  // namespace

std::vector<TpchTableSummary> generate_tpch(const TpchOptions& options) {
  if (!(options.sf > 0) || !std::isfinite(options.sf))
    throw Error(ErrorCode::INTERNAL, fmt::format("invalid TPC-H scale factor {}", options.sf));
  if (!(options.skew >= 0) || !std::isfinite(options.skew))
    throw Error(ErrorCode::INTERNAL, fmt::format("invalid TPC-H skew {}", options.skew));
  if (options.buckets < 1 || options.buckets > kMaxBuckets)
    throw Error(ErrorCode::INTERNAL, fmt::format("invalid bucket count {}", options.buckets));
  if (options.out_dir.empty()) throw Error(ErrorCode::INTERNAL, "no output folder for TPC-H data");
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec || !std::filesystem::is_directory(options.out_dir))
    throw Error(ErrorCode::IO_ERROR,
                fmt::format("cannot create folder '{}': {}", options.out_dir, ec ? ec.message() : "not a directory"));
  return Generator(options).run();
}

}  // namespace hindsight
