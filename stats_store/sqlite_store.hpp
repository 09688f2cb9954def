#pragma once
// The persistent stats scope (DESIGN.md section 5): a SQLite file that remembers observations between
// processes. Schema, migrations, CLI contract: docs/stats-store.md.
//
// Concurrency: any number of processes may read and write one file at once (WAL; writers take the write
// lock up front with BEGIN IMMEDIATE, wait up to the busy timeout, and retry). Robustness: a file that
// cannot be used (corrupt, truncated, not ours, unwritable) never fails a query: snapshot() then answers
// nothing, record() does nothing, and take_warnings() says why ("STORE_ERROR: ..."). A read-only file
// (or one of a newer schema) is read, never written.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "stats_store/oracle_run.hpp"
#include "stats_store/runtime_stats.hpp"
#include "stats_store/signature_aggregate.hpp"

namespace hindsight::stats {

class SqliteConnection;

/// One observation in a signature's history, with the attempt and query it came from.
struct StoredObservation {
  uint64_t seq = 0;  ///< 1 = the signature's first observation
  double rows = 0;
  bool lower_bound = false;
  uint64_t bytes = 0;
  int64_t peak_memory = 0;
  uint64_t build_rows = 0;
  uint64_t build_bytes = 0;
  uint64_t cpu_ns = 0;
  uint64_t wall_ns = 0;
  uint64_t moved_rows = 0;
  uint64_t moved_bytes = 0;
  int64_t attempt_id = 0;  ///< the store's attempt row
  int64_t started_ms = 0;
  int attempt = 1;
  bool succeeded = true;
  std::string plan_hash;
  std::string query_hash;
  std::string query_text;
};

struct SignatureDetail {
  SignatureAggregate aggregate;
  std::vector<StoredObservation> observations;  ///< newest first
};

struct StoreSummary {
  std::string path;
  int schema_version = 0;
  bool read_only = false;
  uint64_t file_bytes = 0;  ///< the database file plus its WAL
  std::map<std::string, uint64_t> signatures_by_kind;  ///< "exact" | "join_set" | "template"
  uint64_t signatures = 0;
  uint64_t lower_bound_only = 0;
  uint64_t observations = 0;  ///< kept in history
  uint64_t attempts = 0;
  uint64_t queries = 0;
  uint64_t plan_templates = 0;  ///< templates in the regression guard's plan history
  uint64_t plans = 0;           ///< plans remembered over them
  int64_t oldest_ms = 0;  ///< first_seen of the oldest signature (0 when empty)
  int64_t newest_ms = 0;  ///< last_seen of the newest
};

struct ImportResult {
  uint64_t signatures_added = 0;
  uint64_t signatures_merged = 0;
  uint64_t attempts = 0;
  uint64_t queries = 0;
  uint64_t plans = 0;  ///< plan-history records merged (the regression guard's)
};

/// A query text the store recorded (the `queries` table): the first and last time an attempt of it was recorded.
struct StoredQuery {
  std::string query_hash;
  std::string text;
  int64_t first_seen_ms = 0;
  int64_t last_seen_ms = 0;
};

enum class ListOrder { Observations, Rows, Recent };

/// What one trim removed (SqliteStatsStore::trim).
struct TrimResult {
  uint64_t signatures = 0;
  uint64_t observations = 0;  ///< history rows (of removed signatures, or of executions past the retention)
  uint64_t attempts = 0;
  uint64_t queries = 0;
  uint64_t plans = 0;
  uint64_t oracle_rows = 0;
};

/// The store's default retention (the stats_retention setting's default): 30 days.
inline constexpr int64_t kDefaultStatsRetentionMs = int64_t{30} * 24 * 3600 * 1000;

class SqliteStatsStore final : public StatsRepository {
 public:
  static constexpr int kSchemaVersion = 3;
  struct Options {
    bool read_only = false;       ///< never write (inspection)
    int busy_timeout_ms = 10000;  ///< how long a writer waits for another process's transaction
    uint32_t history = 32;        ///< observations kept per signature
    /// The automatic trim (docs/stats-store.md "Retention"): what was not seen for this long goes (0: nothing goes
    /// for its age); at most `max_signatures` signatures stay (the least recently seen go first); it runs after
    /// every `trim_every`-th attempt recorded in the file (by attempt id; 0: never automatically).
    int64_t retention_ms = kDefaultStatsRetentionMs;
    uint64_t max_signatures = 50000;
    uint32_t trim_every = 64;
  };

  /// Opens or creates the store at `path` (creating parent folders). Never throws: a file that cannot be
  /// used leaves the store unusable with a warning.
  explicit SqliteStatsStore(std::string path);
  SqliteStatsStore(std::string path, Options options);
  ~SqliteStatsStore() override;

  std::shared_ptr<const StatsSource> snapshot(const std::vector<TableVersion>& tables, double max_drift) override;
  void record(const AttemptStats& attempt) override;
  std::vector<std::string> take_warnings() override;
  void record_plan_run(const PlanRun& run) override;
  std::vector<PlanRecord> plan_history(const std::string& template_signature) override;
  /// The remembered plans of the templates whose signature starts with `hex` (as show() reads it), fastest
  /// first per template (`hindsight stats show`); throws StoreError.
  std::vector<PlanRecord> plans(const std::string& hex);

  const std::string& path() const { return path_; }
  bool usable() const { return db_ != nullptr; }
  bool writable() const { return db_ != nullptr && !read_only_; }
  /// Store reads made by snapshot(): one statement each (tests and the benchmark check it).
  uint64_t reads() const { return reads_.load(std::memory_order_relaxed); }
  /// Times snapshot() read the signatures from the file (its mirror was not loaded, dropped, or another
  /// connection committed); this connection's own record() keeps the mirror current without one.
  uint64_t file_reads() const { return file_reads_.load(std::memory_order_relaxed); }

  // Maintenance (`hindsight stats`): throw StoreError, the unusable store's reason included.
  std::vector<SignatureAggregate> list(ListOrder order, size_t limit);
  /// Every kind stored under the signature; `hex` is 32 hex digits or a unique-enough prefix (>= 4).
  std::vector<SignatureDetail> show(const std::string& hex, size_t max_observations = 32);
  StoreSummary summary();
  /// Every recorded query last seen at or after `since_ms` (unix ms; 0: all), oldest first (by first seen, then
  /// hash): what `capture --from-store` rebuilds a workload from.
  std::vector<StoredQuery> list_queries(int64_t since_ms = 0);
  /// `hindsight stats gc`: what trim() removes, with `older_than_ms` for the retention and no cap on the number of
  /// signatures. Returns the signatures removed.
  uint64_t gc(int64_t older_than_ms);
  /// The automatic trim, now: signatures not seen within the retention, of another SIGNATURE_VERSION, or beyond
  /// max_signatures (least recently seen first), with their history and inputs; the history of executions older
  /// than the retention; attempts (and their tables) that no kept observation or signature refers to; query texts
  /// no kept attempt refers to and not seen within the retention (or beyond the newest kMaxUnreferencedQueries);
  /// plans not run and oracle replays not recorded within it. One write transaction. Throws StoreError.
  TrimResult trim();
  static constexpr uint64_t kMaxUnreferencedQueries = 10000;
  /// Times this connection trimmed automatically (tests).
  uint64_t trims() const { return trims_; }
  void clear();
  /// Records an oracle replay's figures (table oracle_runs), replacing what the store had for the same workload
  /// and data, in one write transaction; throws StoreError (read-only, locked past the busy timeout, corrupt).
  void record_oracle_run(const OracleRun& run);
  /// The oracle replays recorded for `workload_key`, one per data key (ordered by it); rows that cannot be read
  /// back are left out and counted in `corrupt_rows`. Throws StoreError.
  std::vector<OracleRun> oracle_runs(const std::string& workload_key);
  /// Writes the whole store as a StatsExport message (stats.proto) to `file` (atomically: temp + rename).
  void export_to(const std::string& file);
  /// Merges a StatsExport file in one transaction: a bad file changes nothing.
  ImportResult import_from(const std::string& file);

 private:
  void open();
  void create_or_migrate();
  void require_usable(bool write) const;
  void warn(std::string message);
  void fail(const std::string& during, const std::exception& e);  // warning; unusable on corruption
  /// BEGIN IMMEDIATE, body, COMMIT; rolls back on failure and retries while another writer is busy. Drops the
  /// snapshot mirror unless `keeps_mirror` (a body that writes no signature, or that updates the mirror itself).
  void write_transaction(const std::function<void()>& body, bool keeps_mirror = false);
  /// Writes one attempt's observations; `mirrored` receives every signature row it wrote as snapshot() would
  /// read it back (id -> aggregate with its inputs), for the mirror.
  /// Returns the attempt's id.
  int64_t record_locked(const AttemptStats& attempt, std::map<int64_t, SignatureAggregate>* mirrored);
  /// trim() and gc(): signatures last seen before `cutoff` (unix ms) or beyond the newest `max_signatures`, and
  /// everything trim() describes with the same cutoff.
  TrimResult trim_locked(int64_t cutoff, uint64_t max_signatures);
  int64_t retention_cutoff() const;
  /// Reads the mirror again (the signatures over every table asked for so far and `tables`, with their inputs:
  /// the snapshot statement) when it does not cover `tables`, is not loaded, or another connection committed
  /// since (PRAGMA data_version).
  void refresh_mirror(const std::vector<TableVersion>& tables);
  std::vector<SignatureAggregate> all_aggregates(std::vector<int64_t>* ids, std::vector<int64_t>* last_attempts);

  std::string path_;
  Options options_;
  std::unique_ptr<SqliteConnection> db_;
  bool read_only_ = false;
  int schema_version_ = 0;
  std::string unusable_reason_;
  std::atomic<uint64_t> reads_{0};
  std::atomic<uint64_t> file_reads_{0};
  uint64_t trims_ = 0;
  std::mutex mu_;
  std::vector<std::string> warnings_;
  std::set<std::string> warned_;
  /// What snapshot() reads, kept in memory: a snapshot used to read every signature of the query's tables
  /// with one SQL statement per query (2-10 ms at SF 0.1, most of a feedback run's planning). The mirror
  /// holds the signatures over the tables asked for so far (a query over others reads again, over the
  /// union); this connection's own writes update it (record), any other write of this connection drops
  /// it, and another connection's commit (PRAGMA data_version) makes the next snapshot read again.
  std::map<int64_t, SignatureAggregate> mirror_;  ///< every signature over mirror_tables_ (and some others)
  std::set<std::string> mirror_tables_;
  bool mirror_valid_ = false;
  int64_t mirror_data_version_ = -1;
};

/// The persistent scope for a query, as the session opens it: the SQLite store at `path` (its warnings come
/// through take_warnings(); a read-only store answers and does not record), or, when that file cannot be
/// created or used at all (corrupt, not ours, unwritable folder), a MemoryStatsRepository bounded to
/// kProcessScopeCapacity (nothing persists), with the reasons appended to `warnings`.
std::unique_ptr<StatsRepository> open_stats_store(const std::string& path, std::vector<std::string>& warnings,
                                                  int64_t retention_ms = kDefaultStatsRetentionMs);

}  // namespace hindsight::stats
