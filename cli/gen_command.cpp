#include "cli/commands.hpp"

namespace hindsight::cli {
// Filled in by the data generator work; registered so the CLI links.
void add_gen_command(CLI::App&, int&) {}
}  // namespace hindsight::cli
