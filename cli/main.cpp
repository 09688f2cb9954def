#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.hpp"
#include "planner/common/error.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "planner/storage/temp_files.hpp"

int main(int argc, char** argv) {
  hindsight::install_temp_file_cleanup();  // Ctrl-C or kill during a cache write leaves no temp file behind
  hindsight::keep_freed_memory_for_reuse();  // planner/exec/memory_tracker.hpp
  CLI::App app{"hindsight: a SQL engine whose optimizer learns from what its plans actually did"};
  app.require_subcommand(1);
  int exit_code = 0;
  hindsight::cli::add_gen_command(app, exit_code);
  hindsight::cli::add_query_commands(app, exit_code);
  hindsight::cli::add_stats_command(app, exit_code);
  hindsight::cli::add_workload_commands(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;  // usage error
  } catch (...) {
    // The subcommands report their own failures; this is the last resort, never std::terminate.
    std::cerr << hindsight::current_exception_as_error().format() << "\n";
    return 1;
  }
  return exit_code;
}
