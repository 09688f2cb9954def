// SqliteStatsStore's maintenance API (`hindsight stats list | show | summary | gc | clear`).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <limits>

#include "stats_store/sqlite_connection.hpp"
#include "stats_store/sqlite_store.hpp"
#include "stats_store/sqlite_store_columns.hpp"

namespace hindsight::stats {

using store_columns::read_aggregate;

std::vector<SignatureAggregate> SqliteStatsStore::list(ListOrder order, size_t limit) {
  std::lock_guard lock(mu_);
  require_usable(false);
  const char* by = order == ListOrder::Rows     ? "CASE WHEN s.lower_bound_only THEN s.max_lower_bound ELSE s.last_rows END DESC"
                   : order == ListOrder::Recent ? "s.last_seen_ms DESC"
                                                : "s.observations DESC";
  auto& st = db_->statement(fmt::format("SELECT {}, {} FROM signatures s ORDER BY {}, s.id LIMIT ?1",
                                        store_columns::kAggregate, store_columns::kTexts, by));
  st.bind(1, limit == 0 ? int64_t{-1} : static_cast<int64_t>(limit));
  std::vector<SignatureAggregate> out;
  while (st.step()) read_aggregate(st, out.emplace_back(), true);
  return out;
}

std::vector<SignatureDetail> SqliteStatsStore::show(const std::string& hex_in, size_t max_observations) {
  std::lock_guard lock(mu_);
  require_usable(false);
  std::string hex = hex_in;
  std::transform(hex.begin(), hex.end(), hex.begin(), [](unsigned char c) { return std::tolower(c); });
  if (hex.size() < 4 || hex.size() > 32 || !std::all_of(hex.begin(), hex.end(), [](unsigned char c) {
        return std::isxdigit(c) != 0;
      }))
    throw StoreError(fmt::format("'{}' is not a signature: give 4 to 32 hex digits", hex_in));
  // Hex digits only, so the LIKE pattern has no wildcard of its own.
  auto& st = db_->statement(fmt::format("SELECT {}, {} FROM signatures s WHERE s.signature LIKE ?1 ORDER BY s.kind "
                                        "LIMIT 64",
                                        store_columns::kAggregate, store_columns::kTexts));
  st.bind(1, hex + "%");
  std::vector<std::pair<int64_t, SignatureAggregate>> found;
  while (st.step()) {
    SignatureAggregate a;
    const int64_t id = read_aggregate(st, a, true);
    found.emplace_back(id, std::move(a));
  }
  std::vector<SignatureDetail> out;
  for (auto& [id, a] : found) {
    SignatureDetail d;
    auto& in = db_->statement(
        "SELECT i.table_name, t.data_version, t.rows FROM signatures s JOIN signature_inputs i ON i.signature_id = s.id "
        "LEFT JOIN attempt_tables t ON t.attempt_id = s.last_attempt_id AND t.table_name = i.table_name "
        "WHERE s.id = ?1 ORDER BY i.table_name");
    in.bind(1, id);
    while (in.step())
      a.inputs.push_back(TableVersion{in.text(0), in.is_null(1) ? "" : in.text(1), static_cast<uint64_t>(in.int64(2))});
    auto& ob = db_->statement(
        "SELECT o.seq, o.rows, o.lower_bound, o.bytes, o.peak_memory, o.build_rows, o.build_bytes, o.cpu_ns, "
        "o.wall_ns, o.moved_rows, o.moved_bytes, o.attempt_id, a.started_ms, a.attempt, a.succeeded, a.plan_hash, "
        "a.query_hash, q.text FROM observations o LEFT JOIN attempts a ON a.id = o.attempt_id "
        "LEFT JOIN queries q ON q.query_hash = a.query_hash WHERE o.signature_id = ?1 ORDER BY o.seq DESC LIMIT ?2");
    ob.bind(1, id).bind(2, static_cast<int64_t>(max_observations));
    while (ob.step()) {
      StoredObservation o;
      o.seq = static_cast<uint64_t>(ob.int64(0));
      o.rows = ob.real(1);
      o.lower_bound = ob.int64(2) != 0;
      o.bytes = static_cast<uint64_t>(ob.int64(3));
      o.peak_memory = ob.int64(4);
      o.build_rows = static_cast<uint64_t>(ob.int64(5));
      o.build_bytes = static_cast<uint64_t>(ob.int64(6));
      o.cpu_ns = static_cast<uint64_t>(ob.int64(7));
      o.wall_ns = static_cast<uint64_t>(ob.int64(8));
      o.moved_rows = static_cast<uint64_t>(ob.int64(9));
      o.moved_bytes = static_cast<uint64_t>(ob.int64(10));
      o.attempt_id = ob.int64(11);
      o.started_ms = ob.int64(12);
      o.attempt = static_cast<int>(ob.int64(13));
      o.succeeded = ob.int64(14) != 0;
      o.plan_hash = ob.text(15);
      o.query_hash = ob.text(16);
      o.query_text = ob.text(17);
      d.observations.push_back(std::move(o));
    }
    d.aggregate = std::move(a);
    out.push_back(std::move(d));
  }
  return out;
}

StoreSummary SqliteStatsStore::summary() {
  std::lock_guard lock(mu_);
  require_usable(false);
  StoreSummary s;
  s.path = path_;
  s.schema_version = schema_version_;
  s.read_only = read_only_;
  std::error_code ec;
  for (const auto& p : {path_, path_ + "-wal"}) {
    auto n = std::filesystem::file_size(p, ec);
    if (!ec) s.file_bytes += n;
  }
  auto& k = db_->statement("SELECT kind, count(*), sum(lower_bound_only), min(first_seen_ms), max(last_seen_ms) "
                           "FROM signatures GROUP BY kind");
  bool any = false;
  while (k.step()) {
    const auto n = static_cast<uint64_t>(k.int64(1));
    s.signatures_by_kind[k.text(0)] = n;
    s.signatures += n;
    s.lower_bound_only += static_cast<uint64_t>(k.int64(2));
    s.oldest_ms = any ? std::min(s.oldest_ms, k.int64(3)) : k.int64(3);
    s.newest_ms = any ? std::max(s.newest_ms, k.int64(4)) : k.int64(4);
    any = true;
  }
  for (const char* kind : {"exact", "join_set", "template"}) s.signatures_by_kind.emplace(kind, 0);
  s.observations = static_cast<uint64_t>(db_->query_int("SELECT count(*) FROM observations"));
  s.attempts = static_cast<uint64_t>(db_->query_int("SELECT count(*) FROM attempts"));
  s.queries = static_cast<uint64_t>(db_->query_int("SELECT count(*) FROM queries"));
  s.plans = static_cast<uint64_t>(db_->query_int("SELECT count(*) FROM plan_history"));
  s.plan_templates = static_cast<uint64_t>(db_->query_int("SELECT count(DISTINCT template_signature) FROM plan_history"));
  return s;
}

std::vector<StoredQuery> SqliteStatsStore::list_queries(int64_t since_ms) {
  std::lock_guard lock(mu_);
  require_usable(false);
  std::vector<StoredQuery> out;
  auto& st = db_->statement("SELECT query_hash, text, first_seen_ms, last_seen_ms FROM queries "
                            "WHERE last_seen_ms >= ?1 ORDER BY first_seen_ms, query_hash");
  st.bind(1, since_ms);
  while (st.step()) out.push_back({st.text(0), st.text(1), st.int64(2), st.int64(3)});
  return out;
}

uint64_t SqliteStatsStore::gc(int64_t older_than_ms) {
  std::lock_guard lock(mu_);
  require_usable(true);
  // The automatic trim's removal with the user's cutoff and no cap on the signatures kept.
  return trim_locked(unix_now_ms() - older_than_ms, std::numeric_limits<uint64_t>::max()).signatures;
}

TrimResult SqliteStatsStore::trim() {
  std::lock_guard lock(mu_);
  require_usable(true);
  return trim_locked(retention_cutoff(), options_.max_signatures);
}

int64_t SqliteStatsStore::retention_cutoff() const {
  return options_.retention_ms > 0 ? unix_now_ms() - options_.retention_ms : INT64_MIN;
}

TrimResult SqliteStatsStore::trim_locked(int64_t cutoff, uint64_t max_signatures) {
  TrimResult r;
  const auto changes = [this] { return static_cast<uint64_t>(sqlite3_changes64(db_->raw())); };
  write_transaction([&] {
    r = TrimResult{};
    db_->statement("CREATE TEMP TABLE IF NOT EXISTS gc_victims(id INTEGER PRIMARY KEY)").run();
    db_->statement("DELETE FROM temp.gc_victims").run();
    // Signatures not seen within the retention, of another SIGNATURE_VERSION (they can never answer again), and
    // those past the cap, the least recently seen first: what a snapshot reads grows with the signatures.
    db_->statement("INSERT INTO temp.gc_victims SELECT id FROM signatures WHERE last_seen_ms < ?1 OR signature_version <> ?2")
        .bind(1, cutoff)
        .bind(2, int64_t{sig::SIGNATURE_VERSION})
        .run();
    db_->statement("INSERT OR IGNORE INTO temp.gc_victims SELECT id FROM signatures ORDER BY last_seen_ms DESC, id DESC "
                   "LIMIT -1 OFFSET ?1")
        .bind(1, static_cast<int64_t>(std::min<uint64_t>(max_signatures, INT64_MAX)))
        .run();
    db_->statement("DELETE FROM observations WHERE signature_id IN (SELECT id FROM temp.gc_victims)").run();
    r.observations += changes();
    db_->statement("DELETE FROM signature_inputs WHERE signature_id IN (SELECT id FROM temp.gc_victims)").run();
    db_->statement("DELETE FROM signatures WHERE id IN (SELECT id FROM temp.gc_victims)").run();
    r.signatures = changes();
    db_->statement("DELETE FROM temp.gc_victims").run();
    // The history of executions older than the retention (a kept signature's aggregate keeps their figures; its
    // latest attempt, whose tables say how fresh it is, stays below).
    db_->statement("DELETE FROM observations WHERE attempt_id IN (SELECT id FROM attempts WHERE started_ms < ?1)")
        .bind(1, cutoff)
        .run();
    r.observations += changes();
    // Attempts nothing kept refers to: each run adds one, and the history bound alone leaves them behind.
    db_->statement("DELETE FROM attempts WHERE id NOT IN (SELECT attempt_id FROM observations) "
                   "AND id NOT IN (SELECT last_attempt_id FROM signatures)")
        .run();
    r.attempts = changes();
    db_->statement("DELETE FROM attempt_tables WHERE attempt_id NOT IN (SELECT id FROM attempts)").run();
    // Query texts (capture --from-store reads them) while seen within the retention or referred to.
    db_->statement("DELETE FROM queries WHERE query_hash NOT IN (SELECT query_hash FROM attempts) AND "
                   "(last_seen_ms < ?1 OR query_hash IN (SELECT query_hash FROM queries WHERE query_hash NOT IN "
                   "(SELECT query_hash FROM attempts) ORDER BY last_seen_ms DESC LIMIT -1 OFFSET ?2))")
        .bind(1, cutoff)
        .bind(2, static_cast<int64_t>(kMaxUnreferencedQueries))
        .run();
    r.queries = changes();
    db_->statement("DELETE FROM plan_history WHERE last_seen_ms < ?1").bind(1, cutoff).run();
    r.plans = changes();
    if (schema_version_ >= 3) {
      db_->statement("DELETE FROM oracle_runs WHERE recorded_ms < ?1").bind(1, cutoff).run();
      r.oracle_rows = changes();
    }
  }, /*keeps_mirror=*/false);
  return r;
}

void SqliteStatsStore::clear() {
  std::lock_guard lock(mu_);
  require_usable(true);
  write_transaction([&] {
    db_->exec("DELETE FROM observations; DELETE FROM signature_inputs; DELETE FROM signatures;"
              "DELETE FROM attempt_tables; DELETE FROM attempts; DELETE FROM queries; DELETE FROM plan_history;");
    if (schema_version_ >= 3) db_->exec("DELETE FROM oracle_runs;");
  });
  try {
    db_->exec("VACUUM");  // give the space back; not essential
  } catch (const StoreError&) {
  }
}

}  // namespace hindsight::stats
