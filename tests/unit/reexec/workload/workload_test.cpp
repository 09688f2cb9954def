#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "planner/common/error.hpp"
#include "reexec/workload/capture.hpp"
#include "reexec/workload/result_digest.hpp"
#include "reexec/workload/workload_file.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight::workload {
namespace {

using namespace hindsight::testing;

Batch two_cols(std::vector<OptInt> a, std::vector<OptStr> b) { return make_batch({int_col(a), str_col(b)}); }

TEST(ResultDigestTest, UnorderedDigestIgnoresRowOrderAndBatchBoundaries) {
  std::vector<Batch> one, other;
  one.push_back(two_cols({1, 2, 3}, {"a", "b", std::nullopt}));
  other.push_back(two_cols({3}, {std::nullopt}));
  other.push_back(two_cols({2, 1}, {"b", "a"}));
  EXPECT_EQ(result_digest(one, false).hex, result_digest(other, false).hex);
  EXPECT_EQ(result_digest(one, false).rows, 3u);
  // In order, the order counts.
  EXPECT_NE(result_digest(one, true).hex, result_digest(other, true).hex);
}

TEST(ResultDigestTest, NullIsNotTheTextNAndValuesDoNotRunTogether) {
  std::vector<Batch> null_row, text_row, ab, a_b;
  null_row.push_back(two_cols({1}, {std::nullopt}));
  text_row.push_back(two_cols({1}, {"\\N"}));
  EXPECT_NE(result_digest(null_row, false).hex, result_digest(text_row, false).hex);
  ab.push_back(make_batch({str_col({"ab"}), str_col({""})}));
  a_b.push_back(make_batch({str_col({"a"}), str_col({"b"})}));
  EXPECT_NE(result_digest(ab, false).hex, result_digest(a_b, false).hex);
  // Another row makes another digest.
  std::vector<Batch> more;
  more.push_back(two_cols({1, 1}, {std::nullopt, std::nullopt}));
  EXPECT_NE(result_digest(null_row, false).hex, result_digest(more, false).hex);
}

TEST(ResultDigestTest, DoublesThatDifferOnlyInTheLastBitsDigestAlike) {
  std::vector<Batch> a, b, c;
  a.push_back(make_batch({dbl_col({0.1 + 0.2})}));
  b.push_back(make_batch({dbl_col({0.3})}));
  c.push_back(make_batch({dbl_col({0.3001})}));
  EXPECT_EQ(result_digest(a, false).hex, result_digest(b, false).hex);
  EXPECT_NE(result_digest(b, false).hex, result_digest(c, false).hex);
}

TEST(NamedStatementsTest, NamesFromCommentsOtherwiseByPosition) {
  const std::string sql =
      "-- name: first\nSELECT 1;\nSET workers = 2;\nSELECT 2;\n-- a comment\n-- name:  third one \n-- more\nSELECT\n 3;";
  auto s = named_statements(sql);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].name, "first");
  EXPECT_EQ(s[0].line, 2);
  EXPECT_FALSE(s[1].is_query);
  EXPECT_EQ(s[1].set_name, "workers");
  EXPECT_EQ(s[1].set_value, "2");
  EXPECT_FALSE(s[0].ordered);
  EXPECT_TRUE(named_statements("SELECT 1 ORDER BY 1").at(0).ordered);
  EXPECT_EQ(s[2].name, "q2");  // the second query; the SET is not counted
  EXPECT_EQ(s[3].name, "third one");
  EXPECT_EQ(s[3].line, 8);
  EXPECT_EQ(s[3].sql.find("SELECT"), 0u);
}

TEST(NamedStatementsTest, ANameBelongsToTheStatementAfterIt) {
  // The name line comes after the first statement on its line: it names the second.
  auto s = named_statements("SELECT 1; -- name: nope\n-- name: second\nSELECT 2;");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "q1");
  EXPECT_EQ(s[1].name, "second");
}

TEST(WorkloadFromStoreTest, EveryQueryOfEveryTextNamedOnceAndOnlyOnce) {
  std::vector<std::string> skipped;
  const std::string sql = workload_sql_from_texts(
      {"SELECT 1", "-- name: s1\nSELECT 2", "SELECT 3; SET workers = 2; SELECT 1", "SELEC nope",
       "-- name: s1\nSELECT 4", "SELECT 5"},
      &skipped);
  const auto st = named_statements(sql);
  std::vector<std::pair<std::string, std::string>> got;
  for (auto& s : st) got.emplace_back(s.name, s.sql);
  // "s1" is the second text's own name: the unnamed ones take the free s2, s3, ...; the fifth text's s1 is taken.
  const std::vector<std::pair<std::string, std::string>> want = {
      {"s2", "SELECT 1"}, {"s1", "SELECT 2"}, {"s3", "SELECT 3"}, {"s4", "SELECT 4"}, {"s5", "SELECT 5"}};
  EXPECT_EQ(got, want) << sql;
  ASSERT_EQ(skipped.size(), 3u);
  EXPECT_NE(skipped[0].find("text 3: line 1: not a query"), std::string::npos) << skipped[0];
  EXPECT_NE(skipped[1].find("text 3: line 1: the same query"), std::string::npos) << skipped[1];
  EXPECT_NE(skipped[2].find("text 4: PARSE_ERROR"), std::string::npos) << skipped[2];
  EXPECT_EQ(workload_sql_from_texts({}, nullptr), "");
}

TEST(NamedStatementsTest, BadFilesAreTypedErrorsWithTheLine) {
  auto code_of = [](const std::string& sql) {
    try {
      named_statements(sql);
    } catch (const Error& e) {
      return std::make_pair(e.code(), std::string(e.what()));
    }
    return std::make_pair(ErrorCode::INTERNAL, std::string("no error"));
  };
  auto dup = code_of("-- name: a\nSELECT 1;\n-- name: a\nSELECT 2;");
  EXPECT_EQ(dup.first, ErrorCode::BIND_ERROR);
  EXPECT_NE(dup.second.find("line 4"), std::string::npos) << dup.second;
  EXPECT_NE(dup.second.find("line 2"), std::string::npos) << dup.second;
  auto explain = code_of("SELECT 1;\nEXPLAIN SELECT 2;");
  EXPECT_EQ(explain.first, ErrorCode::NOT_SUPPORTED);
  EXPECT_NE(explain.second.find("line 2"), std::string::npos) << explain.second;
  auto parse = code_of("SELECT 1;\nSELEC 2;");
  EXPECT_EQ(parse.first, ErrorCode::PARSE_ERROR);
  EXPECT_NE(parse.second.find("2:"), std::string::npos) << parse.second;
}

class WorkloadFileTest : public ::testing::Test {
 protected:
  std::string dir = (std::filesystem::temp_directory_path() / ("hs-wl-test-" + std::to_string(::getpid()))).string();
  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }
  Workload sample() {
    Workload w;
    w.set_format_version(kWorkloadFormatVersion);
    w.set_created_at("2026-12-01T00:00:00Z");
    auto* q = w.add_queries();
    q->set_name("q1");
    q->set_sql("SELECT 1");
    q->set_ok(true);
    q->mutable_result()->set_digest("0123456789abcdef");
    q->mutable_plan()->set_operator_("Values");
    return w;
  }
  std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void write_bytes(const std::string& path, const std::string& b) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << b;
  }
  std::string data_error(const std::string& path) {
    try {
      read_workload(path);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.what();
      return e.what();
    }
    return "no error";
  }
};

TEST_F(WorkloadFileTest, RoundTrips) {
  const std::string path = dir + "/w.hsw";
  write_workload(sample(), path);
  Workload back = read_workload(path);
  ASSERT_EQ(back.queries_size(), 1);
  EXPECT_EQ(back.queries(0).result().digest(), "0123456789abcdef");
  EXPECT_EQ(back.queries(0).plan().operator_(), "Values");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_NE(workload_json(back).find("\"digest\": \"0123456789abcdef\""), std::string::npos) << workload_json(back);
}

TEST_F(WorkloadFileTest, EmptyTruncatedCorruptAndForeignFilesAreDataErrors) {
  const std::string path = dir + "/w.hsw";
  write_workload(sample(), path);
  const std::string good = bytes_of(path);
  write_bytes(dir + "/empty.hsw", "");
  EXPECT_NE(data_error(dir + "/empty.hsw").find("empty"), std::string::npos);
  write_bytes(dir + "/short.hsw", good.substr(0, 12));
  EXPECT_NE(data_error(dir + "/short.hsw").find("truncated"), std::string::npos);
  write_bytes(dir + "/cut.hsw", good.substr(0, good.size() - 3));
  EXPECT_NE(data_error(dir + "/cut.hsw").find("truncated"), std::string::npos);
  std::string flipped = good;
  flipped[good.size() - 2] ^= 0x10;
  write_bytes(dir + "/flip.hsw", flipped);
  EXPECT_NE(data_error(dir + "/flip.hsw").find("checksum"), std::string::npos);
  write_bytes(dir + "/foreign.hsw", "SELECT 1;\n-- not a workload at all, but long enough\n");
  EXPECT_NE(data_error(dir + "/foreign.hsw").find("does not start like one"), std::string::npos);
  std::string newer = good;
  newer[8] = 9;  // format version 9
  write_bytes(dir + "/newer.hsw", newer);
  EXPECT_NE(data_error(dir + "/newer.hsw").find("format version 9"), std::string::npos);
  write_bytes(dir + "/tail.hsw", good + "x");
  EXPECT_NE(data_error(dir + "/tail.hsw").find("after its payload"), std::string::npos);
  try {
    read_workload(dir + "/missing.hsw");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::IO_ERROR);
  }
}

}  // namespace
}  // namespace hindsight::workload
