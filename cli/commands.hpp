#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/session/session.hpp"

namespace hindsight::cli {

/// Each subcommand registers itself on the app and sets its callback; the callback's return value
/// is the process exit code (0 ok, 1 query/data error, 2 usage error), stored in `exit_code`.
void add_gen_command(CLI::App& app, int& exit_code);
void add_query_commands(CLI::App& app, int& exit_code);  // query, explain
void add_stats_command(CLI::App& app, int& exit_code);   // stats list | show | summary | gc | export | import | clear
void add_workload_commands(CLI::App& app, int& exit_code);  // capture, workload show, replay

/// Reads a statement file (at most 64 MB); throws IO_ERROR naming it.
std::string read_sql_file(const std::string& path);
/// Sets a session up the way `query` does: the persistent stats store (`store`, default
/// <data>/.hindsight/stats.db, opened on first use), the --set settings in order (throws TYPE_ERROR /
/// BIND_ERROR for a bad one; returns false, with a message on stderr, for one that is not name=value: a usage
/// error), and the re-execution driver as its statement runner.
bool configure_session(Session& session, const std::string& data, const std::string& store,
                       const std::vector<std::string>& sets);
/// "30d", "12h", "90m", "45s", "2w" -> milliseconds; nullopt when malformed (stats gc --older-than, capture --since).
std::optional<int64_t> parse_duration_ms(const std::string& s);

}  // namespace hindsight::cli
