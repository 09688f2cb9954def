#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "planner/session/session.hpp"

namespace hindsight::cli {

/// Result rows as an aligned text table, CSV (header + rows in the dialect the CSV reader reads back as the same
/// values: NULL = empty unquoted field, '' = "", see docs/csv.md) or the JSON object of DESIGN.md section 8.
std::string format_table(const StatementResult& r);
std::string format_csv(const StatementResult& r);
nlohmann::json format_json(const StatementResult& r);
nlohmann::json error_json(const Error& e);
/// The one way the CLI writes JSON: a byte that is not UTF-8 (in a value, a name, a message) becomes U+FFFD
/// instead of making nlohmann throw, so a JSON object reaches stdout in every case.
std::string json_text(const nlohmann::json& j, int indent = -1);

}  // namespace hindsight::cli
