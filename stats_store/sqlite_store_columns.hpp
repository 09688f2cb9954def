#pragma once
// Internal to the SQLite store's sources: the signatures-row columns every reader selects, in one order.
#include <string>
#include <string_view>

#include "stats_store/signature_aggregate.hpp"
#include "stats_store/sqlite_connection.hpp"

namespace hindsight::stats::store_columns {

/// Columns 0..19 of a signatures row `s` (no texts); kAggregateTexts adds operator, canonical_text (20, 21).
inline constexpr const char* kAggregate =
    "s.id, s.kind, s.signature, s.signature_version, s.observations, s.exact_observations, s.last_rows, "
    "s.sum_rows, s.min_rows, s.max_rows, s.max_lower_bound, s.last_bytes, s.last_peak_memory, s.last_build_rows, "
    "s.last_build_bytes, s.last_cpu_ns, s.last_wall_ns, s.first_seen_ms, s.last_seen_ms, s.last_attempt_id";
inline constexpr int kAggregateCount = 20;
inline constexpr const char* kTexts = "s.operator, s.canonical_text";

/// Reads columns 0..19 (and the texts at 20, 21 when `texts`) into `a`; returns the row id.
inline int64_t read_aggregate(const SqliteStatement& st, SignatureAggregate& a, bool texts) {
  a.kind = key_kind_from_name(st.text_view(1)).value_or(StatsSource::KeyKind::Exact);
  a.signature = sig::Signature::from_hex(st.text_view(2)).value_or(sig::Signature{});
  a.signature_version = static_cast<uint32_t>(st.int64(3));
  a.observations = static_cast<uint64_t>(st.int64(4));
  a.exact_observations = static_cast<uint64_t>(st.int64(5));
  a.last_rows = st.real(6);
  a.sum_rows = st.real(7);
  a.min_rows = st.real(8);
  a.max_rows = st.real(9);
  a.max_lower_bound = st.real(10);
  a.last_bytes = static_cast<uint64_t>(st.int64(11));
  a.last_peak_memory = st.int64(12);
  a.last_build_rows = static_cast<uint64_t>(st.int64(13));
  a.last_build_bytes = static_cast<uint64_t>(st.int64(14));
  a.last_cpu_ns = static_cast<uint64_t>(st.int64(15));
  a.last_wall_ns = static_cast<uint64_t>(st.int64(16));
  a.first_seen_ms = st.int64(17);
  a.last_seen_ms = st.int64(18);
  if (texts) {
    a.operator_name = st.text(20);
    a.canonical_text = st.text(21);
  }
  return st.int64(0);
}

/// Inserts (`id` == 0) or updates the signatures row of `a`; empty `op` / `text` keep the stored ones.
/// Returns the row id.
int64_t write_aggregate(SqliteConnection& db, int64_t id, const SignatureAggregate& a, std::string_view op,
                        std::string_view text, int64_t last_attempt_id);

/// Sets signatures.input_count of row `id` from its signature_inputs rows (after adding some).
void refresh_input_count(SqliteConnection& db, int64_t id);

}  // namespace hindsight::stats::store_columns
