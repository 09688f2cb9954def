#include "stats_store/sqlite_store_columns.hpp"

namespace hindsight::stats::store_columns {

int64_t write_aggregate(SqliteConnection& db, int64_t id, const SignatureAggregate& a, std::string_view op,
                        std::string_view text, int64_t last_attempt_id) {
  auto& up = db.statement(
      id == 0 ? "INSERT INTO signatures(kind, signature, signature_version, operator, canonical_text, observations, "
                "exact_observations, lower_bound_only, last_rows, sum_rows, min_rows, max_rows, max_lower_bound, "
                "last_bytes, last_peak_memory, last_build_rows, last_build_bytes, last_cpu_ns, last_wall_ns, "
                "first_seen_ms, last_seen_ms, last_attempt_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)"
              : "UPDATE signatures SET signature_version = ?3, operator = CASE WHEN ?4 <> '' THEN ?4 ELSE operator "
                "END, canonical_text = CASE WHEN ?5 <> '' THEN ?5 ELSE canonical_text END, observations = ?6, "
                "exact_observations = ?7, lower_bound_only = ?8, last_rows = ?9, sum_rows = ?10, min_rows = ?11, "
                "max_rows = ?12, max_lower_bound = ?13, last_bytes = ?14, last_peak_memory = ?15, "
                "last_build_rows = ?16, last_build_bytes = ?17, last_cpu_ns = ?18, last_wall_ns = ?19, "
                "first_seen_ms = ?20, last_seen_ms = ?21, last_attempt_id = ?22 WHERE id = ?23");
  up.bind(1, std::string_view(key_kind_name(a.kind)))
      .bind(2, a.signature.hex())
      .bind(3, int64_t{a.signature_version})
      .bind(4, op)
      .bind(5, text)
      .bind(6, static_cast<int64_t>(a.observations))
      .bind(7, static_cast<int64_t>(a.exact_observations))
      .bind(8, int64_t{a.lower_bound_only()})
      .bind(9, a.last_rows)
      .bind(10, a.sum_rows)
      .bind(11, a.min_rows)
      .bind(12, a.max_rows)
      .bind(13, a.max_lower_bound)
      .bind(14, static_cast<int64_t>(a.last_bytes))
      .bind(15, a.last_peak_memory)
      .bind(16, static_cast<int64_t>(a.last_build_rows))
      .bind(17, static_cast<int64_t>(a.last_build_bytes))
      .bind(18, static_cast<int64_t>(a.last_cpu_ns))
      .bind(19, static_cast<int64_t>(a.last_wall_ns))
      .bind(20, a.first_seen_ms)
      .bind(21, a.last_seen_ms)
      .bind(22, last_attempt_id);
  if (id != 0) up.bind(23, id);
  up.run();
  return id != 0 ? id : db.last_insert_id();
}

void refresh_input_count(SqliteConnection& db, int64_t id) {
  db.statement("UPDATE signatures SET input_count = (SELECT count(*) FROM signature_inputs WHERE signature_id = ?1) "
               "WHERE id = ?1")
      .bind(1, id)
      .run();
}

}  // namespace hindsight::stats::store_columns
