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

}  // namespace hindsight::cli
