// libFuzzer target: the SQL front end and planner. Bytes -> lexer -> parser -> (print, parse again)
// -> binder -> rewrites -> cardinality model -> join order -> physical planner -> signatures -> plan
// mapper -> EXPLAIN text and JSON, against the TPC-H catalog (4 buckets) plus one table `t` with a
// nullable column of every type. Nothing is executed. SET statements change the settings for the
// statements after them (workers, optimizer, disabled rules, CTE materialization...).
//
// A hindsight::Error is the expected outcome of a bad input. A crash, a sanitizer report, any other
// exception, a hang, or a printed statement that does not parse back to the same text is a finding.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "planner/session/explain.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/session/query_pipeline.hpp"
#include "planner/session/settings.hpp"
#include "planner/sql/parser.hpp"
#include "planner/storage/tpch_generator.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace hindsight;

namespace {

/// The catalog's extra table: every type, all nullable, hash-distributed on two columns.
TableDef every_type_table() {
  TableDef t;
  t.name = "t";
  t.file = "t.csv";
  t.columns = {{"b", DataType::boolean()},       {"i", DataType::integer()},     {"g", DataType::bigint()},
               {"d", DataType::float64()},       {"m", DataType::decimal(12, 3)}, {"s", DataType::varchar()},
               {"dt", DataType::date()}};
  t.distribution = DistributionKind::Hash;
  t.distribution_columns = {"g", "s"};
  t.buckets = 3;
  return t;
}

Database& database() {
  static Database& db = *[] {
    const std::string& dir = fuzz::scratch_dir("sql");
    TpchOptions o;
    o.sf = 0.001;
    o.out_dir = dir;
    o.quiet = true;
    o.threads = 1;
    generate_tpch(o);
    std::ofstream(dir + "/t.csv") << "b,i,g,d,m,s,dt\n"
                                     "true,1,10,1.5,2.125,abc,1995-03-15\n"
                                     "false,,20,,-7.000,,1996-01-01\n"
                                     ",3,,-0.0,,\"\",\n"
                                     "true,-4,40,1e300,123456789.999,x y,1970-01-01\n";
    Catalog c = tpch_catalog(4);
    c.folder = dir;
    c.tables.push_back(every_type_table());
    return new Database(std::move(c));
  }();
  return db;
}

/// to_string(parse(to_string(stmt))) must equal to_string(stmt): the printer promises that its text parses
/// back to the same tree.
void check_print_round_trip(const sql::Statement& stmt) {
  std::string printed = sql::to_string(stmt);
  std::string again;
  try {
    again = sql::to_string(*sql::parse_statement(printed));
  } catch (const Error& e) {
    fuzz::finding("printed statement does not parse: " + e.format() + "\nprinted: " + printed);
  }
  if (again != printed) fuzz::finding("print round trip changed the statement:\nfirst:  " + printed + "\nsecond: " + again);
}

void plan(const sql::Query& q, const std::string& text, const Settings& settings) {
  auto cq = compile_query(database(), q, text, settings);
  auto mapping = map_query(*cq, nullptr, settings);
  (void)explain_text(*cq, nullptr, mapping.get());
  (void)explain_json(*cq, nullptr, mapping.get()).dump();
  (void)plan_hash(*cq);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  database();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Settings settings;
  settings.workers = 4;
  fuzz::expect_only_hindsight_errors("parse", [&] {
    auto statements = sql::parse_sql(text);
    const bool round_trip = !std::getenv("HINDSIGHT_FUZZ_NO_ROUND_TRIP");
    for (const auto& s : statements) {
      if (round_trip) check_print_round_trip(*s);
      fuzz::expect_only_hindsight_errors("plan", [&] {
        if (s->is<sql::SetStatement>()) {
          const auto& set = s->as<sql::SetStatement>();
          apply_setting(settings, set.name, set.value);
          // Planning for thousands of workers is legitimate but slow: keep inputs fast.
          if (settings.workers > 64) settings.workers = 64;
        } else if (s->is<sql::SelectStatement>()) {
          plan(*s->as<sql::SelectStatement>().query, s->text, settings);
        } else if (s->is<sql::ExplainStatement>()) {
          plan(*s->as<sql::ExplainStatement>().query, s->text, settings);
        }
        // ANALYZE reads whole tables: not a front-end matter.
      });
    }
  });
  return 0;
}
