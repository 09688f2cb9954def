#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"hindsight: a SQL engine whose optimizer learns from what its plans actually did"};
  app.require_subcommand(1);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
