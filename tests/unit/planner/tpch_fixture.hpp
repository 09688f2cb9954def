#pragma once
// Shared by planner tests: TPC-H SF 0.01 generated once per test binary into a temp folder.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>

#include "planner/session/session.hpp"
#include "planner/sql/parser.hpp"
#include "planner/storage/tpch_generator.hpp"

namespace hindsight::testing {

inline const std::string& tpch_dir() {
  // Never destroyed: the exit handler that removes the folder runs after function-local statics
  // constructed before it was registered are gone.
  static const std::string& dir = *[] {
    auto* d = new std::string(
        (std::filesystem::temp_directory_path() / ("hindsight-planner-test-" + std::to_string(getpid()))).string());
    TpchOptions o;
    o.sf = 0.01;
    o.out_dir = *d;
    o.quiet = true;
    generate_tpch(o);
    std::atexit([] { std::filesystem::remove_all(tpch_dir()); });
    return d;
  }();
  return dir;
}

inline Database& tpch_db() {
  static Database db(tpch_dir());
  return db;
}

/// Compiles `sql` (one SELECT) against the TPC-H test data.
inline std::unique_ptr<CompiledQuery> compile(const std::string& sql, Settings settings = {}) {
  auto stmts = sql::parse_sql(sql);
  return compile_query(tpch_db(), *stmts.at(0)->as<sql::SelectStatement>().query, sql, settings);
}

/// Runs a script and returns the result of its last statement.
inline StatementResult run(const std::string& sql, Settings settings = {}) {
  Session s(tpch_db());
  s.settings() = settings;
  return s.run_script(sql);
}

/// The scan of `table` in the plan under `root` (the last one in pre-order; nullptr: none).
inline const PhysicalOperator* scan_of(const PhysicalOperator& root, const std::string& table) {
  const PhysicalOperator* found = nullptr;
  std::function<void(const PhysicalOperator&)> walk = [&](const PhysicalOperator& op) {
    if (op.kind == PhysicalOpKind::TableScan && op.as<PhysicalTableScan>().table->def.name == table) found = &op;
    for (auto& c : op.children) walk(*c);
  };
  walk(root);
  return found;
}

/// Expects `fn` to throw hindsight::Error with `code` at line:col (col 0 = any).
template <class Fn>
void expect_error(Fn&& fn, ErrorCode code, int line = 0, int col = 0) {
  try {
    fn();
    ADD_FAILURE() << "expected " << error_code_name(code);
  } catch (const Error& e) {
    EXPECT_EQ(error_code_name(e.code()), std::string(error_code_name(code))) << e.format();
    if (line) {
      EXPECT_EQ(e.pos().line, line) << e.format();
    }
    if (col) {
      EXPECT_EQ(e.pos().col, col) << e.format();
    }
  }
}

}  // namespace hindsight::testing
