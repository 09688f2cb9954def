#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "planner/session/session.hpp"

namespace hindsight::cli {

/// Result rows as an aligned text table, CSV (header + rows in the dialect the CSV reader reads back as the same
/// values: NULL = empty unquoted field, '' = "", see docs/csv.md) or the JSON object of DESIGN.md section 8.
/// The write_* functions stream row by row to `out`: a large result is never copied whole into text.
void write_table(const StatementResult& r, std::ostream& out);
void write_csv(const StatementResult& r, std::ostream& out);
void write_json(const StatementResult& r, std::ostream& out);
/// The same JSON object as a value (small results: failures, tests); without the rows if !with_rows.
nlohmann::json format_json(const StatementResult& r, bool with_rows = true);
nlohmann::json error_json(const Error& e);
/// The regression guard's report of the statement (`"regression_guard"`), null when it found nothing.
nlohmann::json regression_guard_json(const StatementResult& r);
/// The one way the CLI writes JSON: a byte that is not UTF-8 (in a value, a name, a message) becomes U+FFFD
/// instead of making nlohmann throw, so a JSON object reaches stdout in every case.
std::string json_text(const nlohmann::json& j, int indent = -1);

}  // namespace hindsight::cli
