#include "cli/commands.hpp"

namespace hindsight::cli {
void add_query_commands(CLI::App&, int&) {}
}  // namespace hindsight::cli
