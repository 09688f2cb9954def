#include "stats_store/sqlite_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>
#include <utility>

#include "stats_store/memory_repository.hpp"
#include "stats_store/memory_stats_source.hpp"
#include "stats_store/sqlite_connection.hpp"
#include "stats_store/sqlite_schema.hpp"
#include "stats_store/sqlite_store_columns.hpp"

namespace hindsight::stats {

namespace fs = std::filesystem;
using store_columns::read_aggregate;

namespace {

bool is_corruption(int code) {
  const int primary = code & 0xff;
  return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
}
bool is_busy(int code) {
  const int primary = code & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

// A quick_check reads every page: on open (every process opens the store), only while that costs a few
// milliseconds. Larger files rely on the header check below and on SQLITE_CORRUPT / SQLITE_NOTADB.
constexpr uint64_t kQuickCheckMaxBytes = 4ull << 20;
// Tries of a write transaction that met SQLITE_BUSY after the busy timeout (or where SQLite returns
// BUSY without waiting, e.g. a WAL being recovered by another connection).
constexpr int kBusyRetries = 8;

// Runs `step` again while SQLite answers BUSY without waiting for its busy timeout: switching a fresh file to WAL
// needs the file to itself, and several processes opening the same new store at once meet there (SQLite reports
// the contention at once instead of calling the busy handler, to break a possible deadlock).
template <typename F>
auto retry_busy(F&& step) {
  for (int attempt = 1;; ++attempt) {
    try {
      return step();
    } catch (const StoreError& e) {
      if (!is_busy(e.sqlite_code()) || attempt >= kBusyRetries) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(20 * attempt));
    }
  }
}

uint64_t file_bytes(const std::string& path) {
  std::error_code ec;
  auto n = fs::file_size(path, ec);
  return ec ? 0 : n;
}

// A database file shorter than its header says is truncated. Only decidable without a WAL: a checkpoint
// interrupted by a crash may leave the file short of pages the WAL still holds.
bool truncated_by_header(const std::string& path) {
  std::error_code ec;
  const auto wal = fs::file_size(path + "-wal", ec);
  if (!ec && wal > 0) return false;
  const auto size = fs::file_size(path, ec);
  if (ec || size < 100) return false;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  unsigned char h[100];
  const bool ok = std::fread(h, 1, sizeof h, f) == sizeof h;
  std::fclose(f);
  if (!ok || std::memcmp(h, "SQLite format 3", 16) != 0) return false;  // not SQLite at all: SQLite says so
  auto be32 = [&](int at) { return uint32_t{h[at]} << 24 | uint32_t{h[at + 1]} << 16 | uint32_t{h[at + 2]} << 8 | h[at + 3]; };
  const uint32_t page_size = (uint32_t{h[16]} << 8 | h[17]) == 1 ? 65536 : (uint32_t{h[16]} << 8 | h[17]);
  const uint32_t pages = be32(28);
  // The in-header size is valid only when its "version valid for" matches the change counter.
  if (be32(24) != be32(92) || pages == 0 || page_size < 512) return false;
  return size < uint64_t{pages} * page_size;
}

// The signatures whose input tables are all among ?1 (a JSON array of names), each with its inputs as the
// latest observation saw them: candidates through the table index (plus those without inputs), minus any
// with an input outside the list. One statement: the snapshot's one read.
const std::string kSnapshotSql = fmt::format(
    "WITH wanted(name) AS (SELECT value FROM json_each(?1)), "
    "candidates(id) AS (SELECT signature_id FROM signature_inputs WHERE table_name IN wanted "
    "                   UNION SELECT id FROM signatures WHERE input_count = 0) "
    "SELECT {}, i.table_name, t.data_version, t.rows FROM candidates c JOIN signatures s ON s.id = c.id "
    "LEFT JOIN signature_inputs i ON i.signature_id = s.id "
    "LEFT JOIN attempt_tables t ON t.attempt_id = s.last_attempt_id AND t.table_name = i.table_name "
    "WHERE NOT EXISTS (SELECT 1 FROM signature_inputs x WHERE x.signature_id = s.id AND x.table_name NOT IN wanted) "
    "ORDER BY s.id",
    store_columns::kAggregate);

std::string json_names(const std::vector<TableVersion>& tables) {
  std::string out = "[";
  for (const auto& t : tables) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (unsigned char c : t.name) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20) {
        out += fmt::format("\\u{:04x}", c);
      } else {
        out += static_cast<char>(c);
      }
    }
    out += '"';
  }
  return out + "]";
}
const std::string kFindSql =
    fmt::format("SELECT {} FROM signatures s WHERE s.kind = ?1 AND s.signature = ?2", store_columns::kAggregate);

}  // namespace

SqliteStatsStore::SqliteStatsStore(std::string path) : SqliteStatsStore(std::move(path), Options{}) {}

SqliteStatsStore::SqliteStatsStore(std::string path, Options options)
    : path_(std::move(path)), options_(options) {
  open();
}

SqliteStatsStore::~SqliteStatsStore() = default;

void SqliteStatsStore::warn(std::string message) {
  if (warned_.insert(message).second) warnings_.push_back(std::move(message));
}

void SqliteStatsStore::open() {
  try {
    if (!options_.read_only) {
      const auto parent = fs::path(path_).parent_path();
      std::error_code ec;
      if (!parent.empty()) fs::create_directories(parent, ec);  // a failure shows as the open's error
    }
    const int flags = SQLITE_OPEN_NOMUTEX |
                      (options_.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (truncated_by_header(path_)) throw StoreError("file is truncated", SQLITE_CORRUPT);
    auto db = std::make_unique<SqliteConnection>(path_, flags);
    sqlite3_busy_timeout(db->raw(), options_.busy_timeout_ms);
    read_only_ = options_.read_only || db->read_only();
    // Reads only until the file is known to be ours: a foreign file is never changed.
    const int64_t objects = db->query_int("SELECT count(*) FROM sqlite_master");
    int version = static_cast<int>(db->query_int("PRAGMA user_version"));
    if (objects > 0) {
      const bool has_info =
          db->query_int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'store_info'") > 0;
      if (!has_info || db->query_text("SELECT value FROM store_info WHERE key = 'format'") != kStoreFormat)
        throw StoreError("not a Hindsight stats store (a SQLite database with other tables); left untouched");
      if (file_bytes(path_) <= kQuickCheckMaxBytes) {
        const auto check = db->query_text("PRAGMA quick_check");
        if (check != "ok") throw StoreError("file is corrupt (" + check + ")", SQLITE_CORRUPT);
      }
    }
    if (version > kStoreSchemaVersion) {
      read_only_ = true;
      warn(fmt::format("STORE_ERROR: {}: schema version {} is newer than this build's {}: opened read-only", path_,
                       version, kStoreSchemaVersion));
    }
    if (!read_only_) {
      retry_busy([&] { return db->query_text("PRAGMA journal_mode = WAL"); });
      db->exec("PRAGMA synchronous = NORMAL");
      if (objects == 0 || version < kStoreSchemaVersion) {
        db_ = std::move(db);
        write_transaction([&] {
          // Another process may have created or migrated the file meanwhile: decide under the write lock.
          const int now_version = static_cast<int>(db_->query_int("PRAGMA user_version"));
          const int64_t now_objects = db_->query_int("SELECT count(*) FROM sqlite_master");
          if (now_version == 0 && now_objects > 0)
            throw StoreError("not a Hindsight stats store (a SQLite database with other tables); left untouched");
          if (now_version < kStoreSchemaVersion) migrate_store_schema(*db_, now_version);
        });
        db = std::move(db_);
        db->clear_statements();
        version = kStoreSchemaVersion;
      }
    } else if (objects == 0) {
      throw StoreError("read-only and not a stats store yet");
    } else if (!options_.read_only) {
      warn(fmt::format("STORE_ERROR: {}: read-only: observations of this process are not recorded", path_));
    }
    schema_version_ = version;
    db_ = std::move(db);
  } catch (const StoreError& e) {
    db_.reset();
    unusable_reason_ = fmt::format("{}: {}", path_, e.what());
    warn("STORE_ERROR: " + unusable_reason_ + " (statistics are not used)");
  } catch (const std::exception& e) {
    db_.reset();
    unusable_reason_ = fmt::format("{}: {}", path_, e.what());
    warn("STORE_ERROR: " + unusable_reason_ + " (statistics are not used)");
  }
}

void SqliteStatsStore::fail(const std::string& during, const std::exception& e) {
  const auto* se = dynamic_cast<const StoreError*>(&e);
  if (se && is_corruption(se->sqlite_code())) {
    db_.reset();
    unusable_reason_ = fmt::format("{}: file is corrupt ({})", path_, e.what());
    warn("STORE_ERROR: " + unusable_reason_ + " (statistics are not used)");
    return;
  }
  warn(fmt::format("STORE_ERROR: {}: {} failed: {}", path_, during, e.what()));
}

void SqliteStatsStore::require_usable(bool write) const {
  if (!db_) throw StoreError(unusable_reason_);
  if (write && read_only_) throw StoreError(path_ + ": the store is read-only");
}

void SqliteStatsStore::write_transaction(const std::function<void()>& body, bool keeps_mirror) {
  if (!keeps_mirror) mirror_valid_ = false;
  for (int attempt = 1;; ++attempt) {
    try {
      db_->exec("BEGIN IMMEDIATE");
    } catch (const StoreError& e) {
      if (is_busy(e.sqlite_code()) && attempt < kBusyRetries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20 * attempt));
        continue;
      }
      throw;
    }
    try {
      body();
      db_->exec("COMMIT");
      return;
    } catch (const StoreError& e) {
      if (!sqlite3_get_autocommit(db_->raw())) sqlite3_exec(db_->raw(), "ROLLBACK", nullptr, nullptr, nullptr);
      if (is_busy(e.sqlite_code()) && attempt < kBusyRetries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20 * attempt));
        continue;
      }
      throw;
    } catch (...) {
      if (!sqlite3_get_autocommit(db_->raw())) sqlite3_exec(db_->raw(), "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
}

void SqliteStatsStore::refresh_mirror(const std::vector<TableVersion>& tables) {
  const int64_t data_version = db_->query_int("PRAGMA data_version");
  const bool current = mirror_valid_ && data_version == mirror_data_version_;
  if (current && std::all_of(tables.begin(), tables.end(), [&](const TableVersion& t) { return mirror_tables_.count(t.name); }))
    return;
  // Read the signatures over the tables asked for so far (and these): one statement, as a snapshot always was.
  std::set<std::string> names = current ? mirror_tables_ : std::set<std::string>{};
  for (const auto& t : tables) names.insert(t.name);
  std::vector<TableVersion> wanted;
  for (const auto& n : names) wanted.push_back(TableVersion{n, "", 0});
  mirror_.clear();
  mirror_tables_.clear();
  mirror_valid_ = false;
  ++file_reads_;
  auto& st = db_->statement(kSnapshotSql);
  st.bind(1, json_names(wanted));
  constexpr int kInput = store_columns::kAggregateCount;
  SignatureAggregate* row = nullptr;
  int64_t current_id = -1;
  while (st.step()) {
    const int64_t id = st.int64(0);
    if (id != current_id) {
      row = &mirror_[id];
      read_aggregate(st, *row, false);
      current_id = id;
    }
    if (!st.is_null(kInput))
      row->inputs.push_back(TableVersion{st.text(kInput), st.is_null(kInput + 1) ? "" : st.text(kInput + 1),
                                         static_cast<uint64_t>(st.int64(kInput + 2))});
  }
  mirror_tables_ = std::move(names);
  mirror_valid_ = true;
  mirror_data_version_ = data_version;
}

std::shared_ptr<const StatsSource> SqliteStatsStore::snapshot(const std::vector<TableVersion>& tables,
                                                              double max_drift) {
  std::lock_guard lock(mu_);
  if (!db_) return std::make_shared<EmptyStatsSource>();
  try {
    MemoryStatsSource::Builder builder(tables, max_drift);
    ++reads_;
    refresh_mirror(tables);
    std::set<std::string_view> wanted;
    for (const auto& t : tables) wanted.insert(t.name);
    // The signatures whose input tables are all among the query's (those without inputs too).
    for (const auto& [id, a] : mirror_)
      if (std::all_of(a.inputs.begin(), a.inputs.end(), [&](const TableVersion& in) { return wanted.count(in.name); }))
        builder.add(a);
    return builder.finish(warnings_);
  } catch (const std::exception& e) {
    mirror_valid_ = false;
    fail("reading statistics", e);
    return std::make_shared<EmptyStatsSource>();
  }
}

void SqliteStatsStore::record(const AttemptStats& attempt) {
  std::lock_guard lock(mu_);
  if (!db_ || attempt.stats.empty()) return;
  if (read_only_) {
    warn(fmt::format("STORE_ERROR: {}: read-only: observations of this process are not recorded", path_));
    return;
  }
  try {
    std::map<int64_t, SignatureAggregate> written;
    int64_t attempt_id = 0;
    write_transaction(
        [&] {
          written.clear();  // a busy retry runs the body again
          attempt_id = record_locked(attempt, mirror_valid_ ? &written : nullptr);
        },
        /*keeps_mirror=*/true);
    if (mirror_valid_)
      for (auto& [id, a] : written) mirror_[id] = std::move(a);
    // The automatic trim, after every trim_every-th attempt of the file (whichever process records it): a
    // short-lived process records a few attempts only, so a count of this connection's would never get there.
    if (options_.trim_every > 0 && attempt_id > 0 && attempt_id % options_.trim_every == 0) {
      trim_locked(retention_cutoff(), options_.max_signatures);
      ++trims_;
    }
  } catch (const std::exception& e) {
    mirror_valid_ = false;
    fail("recording statistics", e);
  }
}

void SqliteStatsStore::record_plan_run(const PlanRun& run) {
  std::lock_guard lock(mu_);
  if (!db_ || read_only_ || run.template_signature.empty()) return;
  try {
    write_transaction([&] {
      std::vector<PlanRecord> plans;
      {
        auto& st = db_->statement(
            "SELECT plan_hash, runs, best_ms, last_ms, first_seen_ms, last_seen_ms, query_text, answers "
            "FROM plan_history WHERE template_signature = ?1");
        st.bind(1, run.template_signature);
        while (st.step()) {
          PlanRecord p;
          p.template_signature = run.template_signature;
          p.plan_hash = st.text(0);
          p.runs = static_cast<uint64_t>(st.int64(1));
          p.best_ms = st.real(2);
          p.last_ms = st.real(3);
          p.first_seen_ms = st.int64(4);
          p.last_seen_ms = st.int64(5);
          plans.push_back(std::move(p));  // query_text and answers are rewritten only for this run's plan
        }
      }
      std::vector<std::string> before;
      for (auto& p : plans) before.push_back(p.plan_hash);
      fold_plan_run(plans, run);
      for (auto& h : before)  // a plan dropped past kPlansPerTemplate
        if (std::none_of(plans.begin(), plans.end(), [&](const PlanRecord& p) { return p.plan_hash == h; }))
          db_->statement("DELETE FROM plan_history WHERE template_signature = ?1 AND plan_hash = ?2")
              .bind(1, run.template_signature)
              .bind(2, h)
              .run();
      for (auto& p : plans) {
        if (p.plan_hash != run.plan_hash) continue;
        db_->statement(
               "INSERT INTO plan_history(template_signature, plan_hash, runs, best_ms, last_ms, first_seen_ms, "
               "last_seen_ms, query_text, answers) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
               "ON CONFLICT(template_signature, plan_hash) DO UPDATE SET runs = excluded.runs, best_ms = "
               "excluded.best_ms, last_ms = excluded.last_ms, last_seen_ms = excluded.last_seen_ms, query_text = "
               "excluded.query_text, answers = excluded.answers")
            .bind(1, run.template_signature)
            .bind(2, p.plan_hash)
            .bind(3, static_cast<int64_t>(p.runs))
            .bind(4, p.best_ms)
            .bind(5, p.last_ms)
            .bind(6, p.first_seen_ms)
            .bind(7, p.last_seen_ms)
            .bind(8, std::string_view(p.query_text))
            .bind(9, std::string_view(encode_answers(p.answers)))
            .run();
      }
    }, /*keeps_mirror=*/true);  // the plan history only: no signature changes
  } catch (const std::exception& e) {
    fail("recording the plan history", e);
  }
}

namespace {
PlanRecord read_plan(SqliteStatement& st) {
  PlanRecord p;
  p.template_signature = st.text(0);
  p.plan_hash = st.text(1);
  p.runs = static_cast<uint64_t>(st.int64(2));
  p.best_ms = st.real(3);
  p.last_ms = st.real(4);
  p.first_seen_ms = st.int64(5);
  p.last_seen_ms = st.int64(6);
  p.query_text = st.text(7);
  p.answers = decode_answers(st.text(8));
  return p;
}
constexpr const char* kPlanColumns =
    "SELECT template_signature, plan_hash, runs, best_ms, last_ms, first_seen_ms, last_seen_ms, query_text, answers "
    "FROM plan_history";
}  // namespace

std::vector<PlanRecord> SqliteStatsStore::plan_history(const std::string& template_signature) {
  std::lock_guard lock(mu_);
  std::vector<PlanRecord> out;
  if (!db_) return out;
  try {
    auto& st = db_->statement(std::string(kPlanColumns) + " WHERE template_signature = ?1");
    st.bind(1, template_signature);
    while (st.step()) out.push_back(read_plan(st));
  } catch (const std::exception& e) {
    fail("reading the plan history", e);
    out.clear();
  }
  return out;
}

std::vector<PlanRecord> SqliteStatsStore::plans(const std::string& hex_in) {
  std::lock_guard lock(mu_);
  require_usable(false);
  std::string hex = hex_in;
  std::transform(hex.begin(), hex.end(), hex.begin(), [](unsigned char c) { return std::tolower(c); });
  if (hex.empty() || !std::all_of(hex.begin(), hex.end(), [](unsigned char c) { return std::isxdigit(c) != 0; }))
    return {};
  std::vector<PlanRecord> out;
  // Hex digits only, so the LIKE pattern has no wildcard of its own.
  auto& st = db_->statement(std::string(kPlanColumns) + " WHERE template_signature LIKE ?1 ORDER BY template_signature, "
                                                         "best_ms LIMIT 256");
  st.bind(1, hex + "%");
  while (st.step()) out.push_back(read_plan(st));
  return out;
}

int64_t SqliteStatsStore::record_locked(const AttemptStats& attempt, std::map<int64_t, SignatureAggregate>* mirrored) {
  const int64_t now = unix_now_ms();
  const int64_t seen = attempt.started_unix_ms ? attempt.started_unix_ms : now;
  if (!attempt.query_hash.empty())
    db_->statement(
           "INSERT INTO queries(query_hash, text, first_seen_ms, last_seen_ms) VALUES (?1, ?2, ?3, ?3) "
           "ON CONFLICT(query_hash) DO UPDATE SET last_seen_ms = max(last_seen_ms, excluded.last_seen_ms)")
        .bind(1, attempt.query_hash)
        .bind(2, attempt.query_text)
        .bind(3, seen)
        .run();
  db_->statement(
         "INSERT INTO attempts(query_hash, plan_hash, attempt, succeeded, started_ms, recorded_ms) "
         "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(1, attempt.query_hash)
      .bind(2, attempt.plan_hash)
      .bind(3, int64_t{attempt.attempt})
      .bind(4, int64_t{attempt.succeeded})
      .bind(5, seen)
      .bind(6, now)
      .run();
  const int64_t attempt_id = db_->last_insert_id();
  for (const auto& t : attempt.tables)
    db_->statement("INSERT OR REPLACE INTO attempt_tables(attempt_id, table_name, data_version, rows) "
                   "VALUES (?1, ?2, ?3, ?4)")
        .bind(1, attempt_id)
        .bind(2, t.name)
        .bind(3, t.data_version)
        .bind(4, static_cast<int64_t>(t.rows))
        .run();

  for (const auto& s : attempt.stats) {
    const std::string hex = s.signature.hex();
    const char* kind = key_kind_name(s.kind);
    SignatureAggregate a;
    int64_t id = 0;
    {
      auto& find = db_->statement(kFindSql).bind(1, std::string_view(kind)).bind(2, hex);
      if (find.step()) id = read_aggregate(find, a, false);
      find.reset();
    }
    const bool restart = id != 0 && a.signature_version != s.signature_version;
    a.fold(s, s.lower_bound, seen, {});
    id = store_columns::write_aggregate(*db_, id, a, s.operator_name, s.canonical_text, attempt_id);
    if (restart) {
      // Figures of another signature encoding: its history and inputs go with it.
      db_->statement("DELETE FROM observations WHERE signature_id = ?1").bind(1, id).run();
      db_->statement("DELETE FROM signature_inputs WHERE signature_id = ?1").bind(1, id).run();
    }
    if (a.observations == 1) {
      for (const auto& name : s.input_tables)
        db_->statement("INSERT OR IGNORE INTO signature_inputs(signature_id, table_name) VALUES (?1, ?2)")
            .bind(1, id)
            .bind(2, name)
            .run();
      if (restart || !s.input_tables.empty()) store_columns::refresh_input_count(*db_, id);
    }
    if (mirrored) {
      // The row as the snapshot statement reads it back: its input names (kept since its first observation of
      // this signature version), each with the version and rows this attempt recorded (none: "" and 0).
      std::set<std::string> names;
      if (a.observations == 1) {
        names.insert(s.input_tables.begin(), s.input_tables.end());
      } else if (auto it = mirrored->find(id); it != mirrored->end()) {
        for (auto& in : it->second.inputs) names.insert(in.name);
      } else if (auto m = mirror_.find(id); m != mirror_.end()) {
        for (auto& in : m->second.inputs) names.insert(in.name);
      } else {
        mirror_valid_ = false;  // a row the mirror does not know: read the store again
        mirrored = nullptr;
      }
      if (mirrored) {
        SignatureAggregate row = a;
        row.operator_name.clear();
        row.canonical_text.clear();
        row.inputs.clear();
        for (const auto& name : names) {
          TableVersion v{name, "", 0};
          for (const auto& t : attempt.tables)
            if (t.name == name) v = TableVersion{name, t.data_version, t.rows};
          row.inputs.push_back(std::move(v));
        }
        (*mirrored)[id] = std::move(row);
      }
    }
    db_->statement(
           "INSERT OR REPLACE INTO observations(signature_id, seq, attempt_id, rows, lower_bound, bytes, peak_memory, "
           "build_rows, build_bytes, cpu_ns, wall_ns, moved_rows, moved_bytes) "
           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")
        .bind(1, id)
        .bind(2, static_cast<int64_t>(a.observations))
        .bind(3, attempt_id)
        .bind(4, s.rows)
        .bind(5, int64_t{s.lower_bound})
        .bind(6, static_cast<int64_t>(s.bytes))
        .bind(7, s.peak_memory)
        .bind(8, static_cast<int64_t>(s.build_rows))
        .bind(9, static_cast<int64_t>(s.build_bytes))
        .bind(10, static_cast<int64_t>(s.cpu_ns))
        .bind(11, static_cast<int64_t>(s.wall_ns))
        .bind(12, static_cast<int64_t>(s.moved_rows))
        .bind(13, static_cast<int64_t>(s.moved_bytes))
        .run();
    if (a.observations > options_.history)
      db_->statement("DELETE FROM observations WHERE signature_id = ?1 AND seq <= ?2")
          .bind(1, id)
          .bind(2, static_cast<int64_t>(a.observations - options_.history))
          .run();
  }
  return attempt_id;
}

std::vector<std::string> SqliteStatsStore::take_warnings() {
  std::lock_guard lock(mu_);
  return std::exchange(warnings_, {});
}

std::unique_ptr<StatsRepository> open_stats_store(const std::string& path, std::vector<std::string>& warnings,
                                                  int64_t retention_ms) {
  SqliteStatsStore::Options options;
  options.retention_ms = retention_ms;
  auto store = std::make_unique<SqliteStatsStore>(path, options);
  // A read-only store still answers (its record() warns); only an unusable one is replaced.
  if (store->usable()) return store;
  for (auto& w : store->take_warnings()) warnings.push_back(std::move(w));
  warnings.push_back(fmt::format("STORE_ERROR: {}: cannot be used; statistics are kept in memory for this "
                                 "process only",
                                 path));
  return std::make_unique<MemoryStatsRepository>(kProcessScopeCapacity);
}

}  // namespace hindsight::stats
