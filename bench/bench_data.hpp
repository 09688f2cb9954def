#pragma once
// TPC-H SF 0.01 generated once per benchmark process into a temporary folder (removed at exit).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "planner/storage/database.hpp"
#include "planner/storage/tpch_generator.hpp"

namespace hindsight::bench {

inline Database& tpch_sf001() {
  // Never destroyed: the exit handler that removes the folder runs after it would have been.
  static const std::string& dir = *[] {
    auto* d = new std::string((std::filesystem::temp_directory_path() / ("hindsight-bench-" + std::to_string(getpid()))).string());
    TpchOptions o;
    o.sf = 0.01;
    o.out_dir = *d;
    o.quiet = true;
    generate_tpch(o);
    std::atexit([] { std::filesystem::remove_all(dir); });
    return d;
  }();
  static Database db(dir);
  return db;
}

}  // namespace hindsight::bench
