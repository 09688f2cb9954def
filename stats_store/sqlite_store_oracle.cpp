// SqliteStatsStore's oracle replays (table oracle_runs, schema version 3): what `hindsight replay --feedback oracle
// --store PATH` records and a later replay of the same workload on the same data compares with (docs/workload.md).
#include <fmt/format.h>

#include <cmath>

#include "stats_store/sqlite_connection.hpp"
#include "stats_store/sqlite_store.hpp"

namespace hindsight::stats {

void SqliteStatsStore::record_oracle_run(const OracleRun& run) {
  std::lock_guard lock(mu_);
  require_usable(true);
  if (schema_version_ < 3) throw StoreError(path_ + ": the store's schema predates oracle replays");
  const int64_t recorded = run.recorded_ms ? run.recorded_ms : unix_now_ms();
  // One transaction: the workload's previous figures on this data are replaced whole or not at all.
  write_transaction(
      [&] {
        db_->statement("DELETE FROM oracle_runs WHERE workload_key = ?1 AND data_key = ?2")
            .bind(1, run.workload_key)
            .bind(2, run.data_key)
            .run();
        for (const OracleQueryRun& q : run.queries)
          db_->statement("INSERT OR REPLACE INTO oracle_runs(workload_key, data_key, query_name, ok, ms, work, "
                         "plan_hash, recorded_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
              .bind(1, run.workload_key)
              .bind(2, run.data_key)
              .bind(3, q.name)
              .bind(4, int64_t{q.ok})
              .bind(5, q.ms)
              .bind(6, q.work)
              .bind(7, q.plan_hash)
              .bind(8, recorded)
              .run();
      },
      /*keeps_mirror=*/true);  // no signature changes
}

std::vector<OracleRun> SqliteStatsStore::oracle_runs(const std::string& workload_key) {
  std::lock_guard lock(mu_);
  require_usable(false);
  std::vector<OracleRun> out;
  // A store of an older schema opened read-only has no such table: it recorded no oracle replay.
  if (db_->query_int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'oracle_runs'") == 0)
    return out;
  auto& st = db_->statement(
      "SELECT data_key, query_name, ok, ms, work, plan_hash, recorded_ms FROM oracle_runs WHERE workload_key = ?1 "
      "ORDER BY data_key, query_name");
  st.bind(1, workload_key);
  while (st.step()) {
    const std::string data_key = st.is_null(0) ? "" : st.text(0);
    if (out.empty() || out.back().data_key != data_key) {
      out.emplace_back();
      out.back().workload_key = workload_key;
      out.back().data_key = data_key;
    }
    OracleRun& r = out.back();
    // Someone's hand or a broken disk may have left anything in a row: a value of another type or out of range
    // leaves that row out (counted), never a figure made up from it.
    const bool typed = st.type(1) == SQLITE_TEXT && st.type(2) == SQLITE_INTEGER &&
                       (st.type(3) == SQLITE_FLOAT || st.type(3) == SQLITE_INTEGER) &&
                       (st.type(4) == SQLITE_FLOAT || st.type(4) == SQLITE_INTEGER) && st.type(5) == SQLITE_TEXT &&
                       st.type(6) == SQLITE_INTEGER;
    const double ms = typed ? st.real(3) : -1, work = typed ? st.real(4) : -1;
    const int64_t ok = typed ? st.int64(2) : -1;
    if (!typed || (ok != 0 && ok != 1) || !std::isfinite(ms) || ms < 0 || !std::isfinite(work) || work < 0 ||
        st.text_view(1).empty()) {
      ++r.corrupt_rows;
      continue;
    }
    OracleQueryRun q;
    q.name = st.text(1);
    q.ok = ok == 1;
    q.ms = ms;
    q.work = work;
    q.plan_hash = st.text(5);
    r.recorded_ms = std::max(r.recorded_ms, st.int64(6));
    r.queries.push_back(std::move(q));
  }
  return out;
}

}  // namespace hindsight::stats
