#pragma once
#include <CLI/CLI.hpp>

namespace hindsight::cli {

/// Each subcommand registers itself on the app and sets its callback; the callback's return value
/// is the process exit code (0 ok, 1 query/data error, 2 usage error), stored in `exit_code`.
void add_gen_command(CLI::App& app, int& exit_code);
void add_query_commands(CLI::App& app, int& exit_code);  // query, explain
void add_stats_command(CLI::App& app, int& exit_code);   // stats list | show | summary | gc | export | import | clear

}  // namespace hindsight::cli
