#pragma once
// The SQLite store's schema and its forward migrations (docs/stats-store.md "Schema"). PRAGMA user_version
// holds the schema version; store_info('format') = 'hindsight-stats' marks a file as ours.
#include "stats_store/sqlite_connection.hpp"

namespace hindsight::stats {

inline constexpr int kStoreSchemaVersion = 3;
inline constexpr const char* kStoreFormat = "hindsight-stats";

/// Brings a store of schema `from` (0 = a new, empty file) to kStoreSchemaVersion. Runs inside the
/// caller's write transaction.
void migrate_store_schema(SqliteConnection& db, int from);

}  // namespace hindsight::stats
