#include "stats_store/sqlite_schema.hpp"

#include <fmt/format.h>

namespace hindsight::stats {

namespace {

// Version 1. Columns are documented in docs/stats-store.md; keep the two in step.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE store_info(
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE signatures(
  id                 INTEGER PRIMARY KEY,
  kind               TEXT NOT NULL CHECK (kind IN ('exact', 'join_set', 'template')),
  signature          TEXT NOT NULL,
  signature_version  INTEGER NOT NULL,
  operator           TEXT NOT NULL DEFAULT '',
  canonical_text     TEXT NOT NULL DEFAULT '',
  observations       INTEGER NOT NULL,
  exact_observations INTEGER NOT NULL,
  lower_bound_only   INTEGER NOT NULL,
  last_rows          REAL NOT NULL,
  sum_rows           REAL NOT NULL,
  min_rows           REAL NOT NULL,
  max_rows           REAL NOT NULL,
  max_lower_bound    REAL NOT NULL,
  last_bytes         INTEGER NOT NULL,
  last_peak_memory   INTEGER NOT NULL,
  last_build_rows    INTEGER NOT NULL,
  last_build_bytes   INTEGER NOT NULL,
  last_cpu_ns        INTEGER NOT NULL,
  last_wall_ns       INTEGER NOT NULL,
  first_seen_ms      INTEGER NOT NULL,
  last_seen_ms       INTEGER NOT NULL,
  last_attempt_id    INTEGER NOT NULL,
  input_count        INTEGER NOT NULL DEFAULT 0,
  UNIQUE (kind, signature)
);
CREATE INDEX signatures_without_inputs ON signatures(id) WHERE input_count = 0;
CREATE TABLE signature_inputs(
  signature_id INTEGER NOT NULL,
  table_name   TEXT NOT NULL,
  PRIMARY KEY (signature_id, table_name)
) WITHOUT ROWID;
CREATE INDEX signature_inputs_by_table ON signature_inputs(table_name);
CREATE TABLE attempts(
  id          INTEGER PRIMARY KEY,
  query_hash  TEXT NOT NULL,
  plan_hash   TEXT NOT NULL,
  attempt     INTEGER NOT NULL,
  succeeded   INTEGER NOT NULL,
  started_ms  INTEGER NOT NULL,
  recorded_ms INTEGER NOT NULL
);
CREATE TABLE attempt_tables(
  attempt_id   INTEGER NOT NULL,
  table_name   TEXT NOT NULL,
  data_version TEXT NOT NULL,
  rows         INTEGER NOT NULL,
  PRIMARY KEY (attempt_id, table_name)
) WITHOUT ROWID;
CREATE TABLE queries(
  query_hash    TEXT PRIMARY KEY,
  text          TEXT NOT NULL,
  first_seen_ms INTEGER NOT NULL,
  last_seen_ms  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE observations(
  signature_id INTEGER NOT NULL,
  seq          INTEGER NOT NULL,
  attempt_id   INTEGER NOT NULL,
  rows         REAL NOT NULL,
  lower_bound  INTEGER NOT NULL,
  bytes        INTEGER NOT NULL,
  peak_memory  INTEGER NOT NULL,
  build_rows   INTEGER NOT NULL,
  build_bytes  INTEGER NOT NULL,
  cpu_ns       INTEGER NOT NULL,
  wall_ns      INTEGER NOT NULL,
  moved_rows   INTEGER NOT NULL,
  moved_bytes  INTEGER NOT NULL,
  PRIMARY KEY (signature_id, seq)
) WITHOUT ROWID;
)sql";

// Version 2: the regression guard's plan history (docs/stats-store.md "plan_history").
constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE plan_history(
  template_signature TEXT NOT NULL,
  plan_hash          TEXT NOT NULL,
  runs               INTEGER NOT NULL,
  best_ms            REAL NOT NULL,
  last_ms            REAL NOT NULL,
  first_seen_ms      INTEGER NOT NULL,
  last_seen_ms       INTEGER NOT NULL,
  query_text         TEXT NOT NULL DEFAULT '',
  answers            TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (template_signature, plan_hash)
) WITHOUT ROWID;
)sql";

// Version 3: oracle replays' figures per workload and data (docs/stats-store.md "oracle_runs"), and an index for the
// automatic trim of attempts no observation refers to any more (docs/stats-store.md "Retention").
constexpr const char* kSchemaV3 = R"sql(
CREATE TABLE oracle_runs(
  workload_key TEXT NOT NULL,
  data_key     TEXT NOT NULL,
  query_name   TEXT NOT NULL,
  ok           INTEGER NOT NULL,
  ms           REAL NOT NULL,
  work         REAL NOT NULL,
  plan_hash    TEXT NOT NULL,
  recorded_ms  INTEGER NOT NULL,
  PRIMARY KEY (workload_key, data_key, query_name)
) WITHOUT ROWID;
CREATE INDEX observations_by_attempt ON observations(attempt_id);
)sql";

}  // namespace

void migrate_store_schema(SqliteConnection& db, int from) {
  // One step per version: step v brings a store of version v-1 to v. Never edit a released step; add one.
  if (from < 1) {
    db.exec(kSchemaV1);
    db.exec(fmt::format("INSERT INTO store_info(key, value) VALUES ('format', '{}')", kStoreFormat));
    db.exec(fmt::format("INSERT INTO store_info(key, value) VALUES ('created_ms', "
                        "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))"));
  }
  if (from < 2) db.exec(kSchemaV2);
  if (from < 3) db.exec(kSchemaV3);
  db.exec(fmt::format("PRAGMA user_version = {}", kStoreSchemaVersion));
}

}  // namespace hindsight::stats
