// libFuzzer target: the whole statement path, execution included, on two tiny tables. Bytes -> SQL script;
// each statement runs through Session::run_script (parse, bind, plan, execute with 3 workers; EXPLAIN
// [ANALYZE], ANALYZE and SET too). Inputs cannot lift the limits that keep them fast: workers <= 8, a 1 s
// timeout and a 256 MB memory budget are put back after every SET.
//
//   t(b BOOLEAN, i INTEGER, g BIGINT, d DOUBLE, m DECIMAL(12,3), s VARCHAR, dt DATE)  hash(g), 3 buckets, 8 rows
//   r(k BIGINT NOT NULL, s VARCHAR)                                                      replicated, 4 rows
//
// A hindsight::Error is the expected outcome of a bad input, except INTERNAL (a failed invariant, or an
// exception the executor caught). Findings: INTERNAL, a crash, a sanitizer report (e.g. signed overflow in
// an evaluator), a hang, unbounded memory.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "planner/session/session.hpp"
#include "planner/sql/parser.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace hindsight;

namespace {

Database& database() {
  static Database& db = *[] {
    const std::string& dir = fuzz::scratch_dir("exec");
    std::ofstream(dir + "/t.csv") << "b,i,g,d,m,s,dt\n"
                                     "true,1,10,1.5,2.125,abc,1995-03-15\n"
                                     "false,,20,,-7.000,,1996-01-01\n"
                                     ",3,,-0.0,,\"\",\n"
                                     "true,-4,40,1e300,123456789.999,x y,1970-01-01\n"
                                     "false,2147483647,9223372036854775807,-1e-300,-999999999.999,ab%_c,9999-12-31\n"
                                     ",-2147483648,-9223372036854775808,,0.001,\"a,\"\"b\",0001-01-01\n"
                                     "true,0,0,0,0.000,é漢,2000-02-29\n"
                                     "true,1,10,1.5,2.125,abc,1995-03-15\n";
    std::ofstream(dir + "/r.csv") << "k,s\n1,abc\n2,\n3,x y\n10,\"\"\n";
    TableDef t;
    t.name = "t";
    t.file = "t.csv";
    t.columns = {{"b", DataType::boolean()},        {"i", DataType::integer()},      {"g", DataType::bigint()},
                 {"d", DataType::float64()},        {"m", DataType::decimal(12, 3)}, {"s", DataType::varchar()},
                 {"dt", DataType::date()}};
    t.distribution = DistributionKind::Hash;
    t.distribution_columns = {"g"};
    t.buckets = 3;
    TableDef r;
    r.name = "r";
    r.file = "r.csv";
    r.columns = {{"k", DataType::bigint(), false}, {"s", DataType::varchar()}};
    r.distribution = DistributionKind::Replicated;
    Catalog c;
    c.folder = dir;
    c.tables = {t, r};
    return new Database(std::move(c));
  }();
  return db;
}

void clamp(Settings& s) {
  if (s.workers <= 0 || s.workers > 8) s.workers = 3;
  if (s.timeout_ms <= 0 || s.timeout_ms > 1000) s.timeout_ms = 1000;
  s.memory_limit = std::min<int64_t>(s.memory_limit, 256LL << 20);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  database();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Session session(database());
  clamp(session.settings());
  fuzz::expect_only_hindsight_errors("parse", [&] {
    auto statements = sql::parse_sql(text);
    for (const auto& s : statements) {
      fuzz::expect_only_hindsight_errors("run", [&] {
        StatementResult r = session.run_script(s->text);
        clamp(session.settings());
        if (r.error) throw *r.error;  // INTERNAL is a finding (expect_only_hindsight_errors)
      });
    }
  });
  return 0;
}
