// SqliteStatsStore's export and import through the StatsExport message (stats.proto).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <map>
#include <set>
#include <unordered_map>

#include "stats_store/sqlite_connection.hpp"
#include "stats_store/sqlite_store.hpp"
#include "stats_store/sqlite_store_columns.hpp"
#include "stats_store/stats.pb.h"

namespace hindsight::stats {

namespace fs = std::filesystem;
using store_columns::read_aggregate;

namespace {

constexpr uint32_t kExportFormatVersion = 1;
constexpr const char* kExportMagic = "hindsight-stats";
// A stats export larger than this is not one of ours (and would not fit a protobuf message anyway).
constexpr uint64_t kMaxExportBytes = 1ull << 30;

SignatureKind to_proto(StatsSource::KeyKind k) {
  switch (k) {
    case StatsSource::KeyKind::Exact: return SIGNATURE_KIND_EXACT;
    case StatsSource::KeyKind::JoinSet: return SIGNATURE_KIND_JOIN_SET;
    case StatsSource::KeyKind::Template: return SIGNATURE_KIND_TEMPLATE;
  }
  return SIGNATURE_KIND_EXACT;
}

void to_proto(const SignatureAggregate& a, SignatureStats& m) {
  auto* key = m.mutable_key();
  key->set_kind(to_proto(a.kind));
  key->set_hi(a.signature.hi);
  key->set_lo(a.signature.lo);
  key->set_version(a.signature_version);
  m.set_operator_name(a.operator_name);
  m.set_canonical_text(a.canonical_text);
  m.set_observations(a.observations);
  m.set_exact_observations(a.exact_observations);
  m.set_last_rows(a.last_rows);
  m.set_sum_rows(a.sum_rows);
  m.set_min_rows(a.min_rows);
  m.set_max_rows(a.max_rows);
  m.set_max_lower_bound(a.max_lower_bound);
  m.set_last_bytes(a.last_bytes);
  m.set_last_peak_memory(a.last_peak_memory);
  m.set_last_build_rows(a.last_build_rows);
  m.set_last_build_bytes(a.last_build_bytes);
  m.set_last_cpu_ns(a.last_cpu_ns);
  m.set_last_wall_ns(a.last_wall_ns);
  m.set_first_seen_ms(a.first_seen_ms);
  m.set_last_seen_ms(a.last_seen_ms);
}

SignatureAggregate from_proto(const SignatureStats& m) {
  SignatureAggregate a;
  a.kind = m.key().kind() == SIGNATURE_KIND_JOIN_SET   ? StatsSource::KeyKind::JoinSet
           : m.key().kind() == SIGNATURE_KIND_TEMPLATE ? StatsSource::KeyKind::Template
                                                               : StatsSource::KeyKind::Exact;
  a.signature = sig::Signature{m.key().hi(), m.key().lo()};
  a.signature_version = m.key().version();
  a.operator_name = m.operator_name();
  a.canonical_text = m.canonical_text();
  a.observations = m.observations();
  a.exact_observations = m.exact_observations();
  a.last_rows = m.last_rows();
  a.sum_rows = m.sum_rows();
  a.min_rows = m.min_rows();
  a.max_rows = m.max_rows();
  a.max_lower_bound = m.max_lower_bound();
  a.last_bytes = m.last_bytes();
  a.last_peak_memory = m.last_peak_memory();
  a.last_build_rows = m.last_build_rows();
  a.last_build_bytes = m.last_build_bytes();
  a.last_cpu_ns = m.last_cpu_ns();
  a.last_wall_ns = m.last_wall_ns();
  a.first_seen_ms = m.first_seen_ms();
  a.last_seen_ms = m.last_seen_ms();
  return a;
}

/// Everything an import needs checked before it writes anything.
void validate(const StatsExport& e, const std::string& file) {
  auto bad = [&](const std::string& why) { throw StoreError(fmt::format("{}: not a valid stats export: {}", file, why)); };
  if (e.magic() != kExportMagic) bad("missing the hindsight-stats marker");
  if (e.format_version() == 0 || e.format_version() > kExportFormatVersion)
    bad(fmt::format("format version {} (this build reads 1 to {})", e.format_version(), kExportFormatVersion));
  std::unordered_map<int64_t, bool> attempts;
  for (const auto& a : e.attempts())
    if (!attempts.emplace(a.id(), true).second) bad(fmt::format("attempt id {} appears twice", a.id()));
  std::map<std::pair<int, std::pair<uint64_t, uint64_t>>, bool> keys;
  for (const auto& s : e.signatures()) {
    if (!SignatureKind_IsValid(s.key().kind())) bad("unknown signature kind");
    if (!keys.emplace(std::make_pair(int(s.key().kind()), std::make_pair(s.key().hi(), s.key().lo())), true).second)
      bad(fmt::format("signature {} appears twice", sig::Signature{s.key().hi(), s.key().lo()}.hex()));
    if (s.exact_observations() > s.observations() || s.observations() == 0)
      bad(fmt::format("signature {}: inconsistent observation counts",
                      sig::Signature{s.key().hi(), s.key().lo()}.hex()));
    if (!attempts.count(s.last_attempt_id()))
      bad(fmt::format("signature {} refers to a missing attempt", sig::Signature{s.key().hi(), s.key().lo()}.hex()));
    for (const auto& o : s.history())
      if (!attempts.count(o.attempt_id())) bad("an observation refers to a missing attempt");
  }
  std::map<std::pair<std::string, std::string>, bool> plans;
  for (const auto& p : e.plans()) {
    if (!sig::Signature::from_hex(p.template_signature()) || p.plan_hash().empty())
      bad("a plan-history record without a template signature or plan hash");
    if (!plans.emplace(std::make_pair(p.template_signature(), p.plan_hash()), true).second)
      bad(fmt::format("plan {} of template {} appears twice", p.plan_hash(), p.template_signature()));
    if (p.runs() == 0 || !std::isfinite(p.best_ms()) || !std::isfinite(p.last_ms()) || p.best_ms() < 0 ||
        p.last_ms() < p.best_ms())
      bad(fmt::format("plan {} of template {}: inconsistent runs or times", p.plan_hash(), p.template_signature()));
  }
}

}  // namespace

void SqliteStatsStore::export_to(const std::string& file) {
  std::lock_guard lock(mu_);
  require_usable(false);
  StatsExport e;
  e.set_format_version(kExportFormatVersion);
  e.set_magic(kExportMagic);
  e.set_exported_ms(unix_now_ms());
  // One read transaction: the export is one consistent state of the store.
  db_->exec("BEGIN");
  try {
    auto& q = db_->statement("SELECT query_hash, text, first_seen_ms, last_seen_ms FROM queries ORDER BY query_hash");
    while (q.step()) {
      auto* m = e.add_queries();
      m->set_query_hash(q.text(0));
      m->set_text(q.text(1));
      m->set_first_seen_ms(q.int64(2));
      m->set_last_seen_ms(q.int64(3));
    }
    std::unordered_map<int64_t, AttemptRecord*> attempts;
    auto& a = db_->statement(
        "SELECT id, query_hash, plan_hash, attempt, succeeded, started_ms, recorded_ms FROM attempts ORDER BY id");
    while (a.step()) {
      auto* m = e.add_attempts();
      m->set_id(a.int64(0));
      m->set_query_hash(a.text(1));
      m->set_plan_hash(a.text(2));
      m->set_attempt(static_cast<int32_t>(a.int64(3)));
      m->set_succeeded(a.int64(4) != 0);
      m->set_started_ms(a.int64(5));
      m->set_recorded_ms(a.int64(6));
      attempts[m->id()] = m;
    }
    auto& t = db_->statement("SELECT attempt_id, table_name, data_version, rows FROM attempt_tables");
    while (t.step()) {
      auto it = attempts.find(t.int64(0));
      if (it == attempts.end()) continue;
      auto* tv = it->second->add_tables();
      tv->set_name(t.text(1));
      tv->set_data_version(t.text(2));
      tv->set_rows(static_cast<uint64_t>(t.int64(3)));
    }
    std::unordered_map<int64_t, SignatureStats*> sigs;
    auto& s = db_->statement(fmt::format("SELECT {}, {} FROM signatures s ORDER BY s.id", store_columns::kAggregate,
                                         store_columns::kTexts));
    while (s.step()) {
      SignatureAggregate agg;
      const int64_t id = read_aggregate(s, agg, true);
      auto* m = e.add_signatures();
      to_proto(agg, *m);
      m->set_last_attempt_id(s.int64(19));
      sigs[id] = m;
    }
    auto& i = db_->statement("SELECT signature_id, table_name FROM signature_inputs");
    while (i.step())
      if (auto it = sigs.find(i.int64(0)); it != sigs.end()) it->second->add_input_tables(i.text(1));
    auto& o = db_->statement(
        "SELECT signature_id, seq, attempt_id, rows, lower_bound, bytes, peak_memory, build_rows, build_bytes, "
        "cpu_ns, wall_ns, moved_rows, moved_bytes FROM observations ORDER BY signature_id, seq");
    while (o.step()) {
      auto it = sigs.find(o.int64(0));
      if (it == sigs.end()) continue;
      auto* m = it->second->add_history();
      m->set_seq(static_cast<uint64_t>(o.int64(1)));
      m->set_attempt_id(o.int64(2));
      m->set_rows(o.real(3));
      m->set_lower_bound(o.int64(4) != 0);
      m->set_bytes(static_cast<uint64_t>(o.int64(5)));
      m->set_peak_memory(o.int64(6));
      m->set_build_rows(static_cast<uint64_t>(o.int64(7)));
      m->set_build_bytes(static_cast<uint64_t>(o.int64(8)));
      m->set_cpu_ns(static_cast<uint64_t>(o.int64(9)));
      m->set_wall_ns(static_cast<uint64_t>(o.int64(10)));
      m->set_moved_rows(static_cast<uint64_t>(o.int64(11)));
      m->set_moved_bytes(static_cast<uint64_t>(o.int64(12)));
    }
    auto& p = db_->statement(
        "SELECT template_signature, plan_hash, runs, best_ms, last_ms, first_seen_ms, last_seen_ms, query_text, "
        "answers FROM plan_history ORDER BY template_signature, plan_hash");
    while (p.step()) {
      auto* m = e.add_plans();
      m->set_template_signature(p.text(0));
      m->set_plan_hash(p.text(1));
      m->set_runs(static_cast<uint64_t>(p.int64(2)));
      m->set_best_ms(p.real(3));
      m->set_last_ms(p.real(4));
      m->set_first_seen_ms(p.int64(5));
      m->set_last_seen_ms(p.int64(6));
      m->set_query_text(p.text(7));
      m->set_answers(p.text(8));
    }
    db_->exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_->raw(), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  const std::string tmp = fmt::format("{}.tmp.{}", file, ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !e.SerializeToOstream(&out) || !out.flush()) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw StoreError(fmt::format("cannot write {}", file));
    }
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw StoreError(fmt::format("cannot write {}: {}", file, ec.message()));
  }
}

ImportResult SqliteStatsStore::import_from(const std::string& file) {
  std::lock_guard lock(mu_);
  require_usable(true);
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) throw StoreError(fmt::format("{}: cannot read: {}", file, ec.message()));
  if (size > kMaxExportBytes) throw StoreError(fmt::format("{}: not a valid stats export: too large", file));
  StatsExport e;
  {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw StoreError(fmt::format("{}: cannot read", file));
    if (!e.ParseFromIstream(&in)) throw StoreError(fmt::format("{}: not a valid stats export: not a StatsExport message", file));
  }
  validate(e, file);

  ImportResult result;
  write_transaction([&] {
    result = ImportResult{};
    for (const auto& q : e.queries()) {
      db_->statement(
             "INSERT INTO queries(query_hash, text, first_seen_ms, last_seen_ms) VALUES (?1, ?2, ?3, ?4) "
             "ON CONFLICT(query_hash) DO UPDATE SET first_seen_ms = min(first_seen_ms, excluded.first_seen_ms), "
             "last_seen_ms = max(last_seen_ms, excluded.last_seen_ms)")
          .bind(1, q.query_hash())
          .bind(2, q.text())
          .bind(3, q.first_seen_ms())
          .bind(4, q.last_seen_ms())
          .run();
      ++result.queries;
    }
    std::unordered_map<int64_t, int64_t> attempt_ids;  // export id -> store id
    for (const auto& a : e.attempts()) {
      db_->statement(
             "INSERT INTO attempts(query_hash, plan_hash, attempt, succeeded, started_ms, recorded_ms) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
          .bind(1, a.query_hash())
          .bind(2, a.plan_hash())
          .bind(3, int64_t{a.attempt()})
          .bind(4, int64_t{a.succeeded()})
          .bind(5, a.started_ms())
          .bind(6, a.recorded_ms())
          .run();
      const int64_t id = db_->last_insert_id();
      attempt_ids[a.id()] = id;
      for (const auto& t : a.tables())
        db_->statement("INSERT OR REPLACE INTO attempt_tables(attempt_id, table_name, data_version, rows) "
                       "VALUES (?1, ?2, ?3, ?4)")
            .bind(1, id)
            .bind(2, t.name())
            .bind(3, t.data_version())
            .bind(4, static_cast<int64_t>(t.rows()))
            .run();
      ++result.attempts;
    }
    const std::string find_sql = fmt::format("SELECT {}, {} FROM signatures s WHERE s.kind = ?1 AND s.signature = ?2",
                                             store_columns::kAggregate, store_columns::kTexts);
    for (const auto& m : e.signatures()) {
      const SignatureAggregate in = from_proto(m);
      SignatureAggregate stored;
      int64_t id = 0, stored_last_attempt = 0;
      {
        auto& f = db_->statement(find_sql).bind(1, std::string_view(key_kind_name(in.kind))).bind(2, in.signature.hex());
        if (f.step()) {
          id = read_aggregate(f, stored, true);
          stored_last_attempt = f.int64(19);
        }
        f.reset();
      }
      const int64_t in_last_attempt = attempt_ids.at(m.last_attempt_id());
      uint64_t seq_offset = 0;
      SignatureAggregate merged = in;
      int64_t last_attempt = in_last_attempt;
      if (id != 0) {
        if (in.signature_version < stored.signature_version) continue;  // older encoding: never mixed in
        if (in.signature_version == stored.signature_version) {
          merged = stored;
          merged.merge(in);
          last_attempt = in.last_seen_ms > stored.last_seen_ms ? in_last_attempt : stored_last_attempt;
          seq_offset = stored.observations;
        } else {
          db_->statement("DELETE FROM observations WHERE signature_id = ?1").bind(1, id).run();
        }
        ++result.signatures_merged;
      } else {
        ++result.signatures_added;
      }
      id = store_columns::write_aggregate(*db_, id, merged, merged.operator_name, merged.canonical_text, last_attempt);
      for (const auto& name : m.input_tables())
        db_->statement("INSERT OR IGNORE INTO signature_inputs(signature_id, table_name) VALUES (?1, ?2)")
            .bind(1, id)
            .bind(2, name)
            .run();
      if (!m.input_tables().empty()) store_columns::refresh_input_count(*db_, id);
      for (const auto& o : m.history()) {
        db_->statement(
               "INSERT OR REPLACE INTO observations(signature_id, seq, attempt_id, rows, lower_bound, bytes, "
               "peak_memory, build_rows, build_bytes, cpu_ns, wall_ns, moved_rows, moved_bytes) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")
            .bind(1, id)
            .bind(2, static_cast<int64_t>(seq_offset + o.seq()))
            .bind(3, attempt_ids.at(o.attempt_id()))
            .bind(4, o.rows())
            .bind(5, int64_t{o.lower_bound()})
            .bind(6, static_cast<int64_t>(o.bytes()))
            .bind(7, o.peak_memory())
            .bind(8, static_cast<int64_t>(o.build_rows()))
            .bind(9, static_cast<int64_t>(o.build_bytes()))
            .bind(10, static_cast<int64_t>(o.cpu_ns()))
            .bind(11, static_cast<int64_t>(o.wall_ns()))
            .bind(12, static_cast<int64_t>(o.moved_rows()))
            .bind(13, static_cast<int64_t>(o.moved_bytes()))
            .run();
      }
      if (merged.observations > options_.history)
        db_->statement("DELETE FROM observations WHERE signature_id = ?1 AND seq <= ?2")
            .bind(1, id)
            .bind(2, static_cast<int64_t>(merged.observations - options_.history))
            .run();
    }
    // Plan histories merge run counts and keep the best time; the latest run's time, text and answers come
    // from whichever side ran the plan last. Past kPlansPerTemplate plans, the least recently run go.
    std::set<std::string> templates;
    for (const auto& p : e.plans()) {
      db_->statement(
             "INSERT INTO plan_history(template_signature, plan_hash, runs, best_ms, last_ms, first_seen_ms, "
             "last_seen_ms, query_text, answers) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
             "ON CONFLICT(template_signature, plan_hash) DO UPDATE SET runs = runs + excluded.runs, "
             "best_ms = min(best_ms, excluded.best_ms), first_seen_ms = min(first_seen_ms, excluded.first_seen_ms), "
             "last_ms = CASE WHEN excluded.last_seen_ms > last_seen_ms THEN excluded.last_ms ELSE last_ms END, "
             "query_text = CASE WHEN excluded.last_seen_ms > last_seen_ms THEN excluded.query_text ELSE query_text END, "
             "answers = CASE WHEN excluded.last_seen_ms > last_seen_ms THEN excluded.answers ELSE answers END, "
             "last_seen_ms = max(last_seen_ms, excluded.last_seen_ms)")
          .bind(1, p.template_signature())
          .bind(2, p.plan_hash())
          .bind(3, static_cast<int64_t>(p.runs()))
          .bind(4, p.best_ms())
          .bind(5, p.last_ms())
          .bind(6, p.first_seen_ms())
          .bind(7, p.last_seen_ms())
          .bind(8, p.query_text())
          .bind(9, std::string_view(encode_answers(decode_answers(p.answers()))))
          .run();
      templates.insert(p.template_signature());
      ++result.plans;
    }
    for (const auto& t : templates)
      db_->statement(
             "DELETE FROM plan_history WHERE template_signature = ?1 AND plan_hash NOT IN (SELECT plan_hash FROM "
             "plan_history WHERE template_signature = ?1 ORDER BY last_seen_ms DESC, plan_hash LIMIT ?2)")
          .bind(1, t)
          .bind(2, static_cast<int64_t>(kPlansPerTemplate))
          .run();
  });
  return result;
}

}  // namespace hindsight::stats
