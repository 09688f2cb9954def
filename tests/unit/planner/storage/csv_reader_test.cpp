#include "planner/storage/csv_reader.hpp"

#include <gtest/gtest.h>

#include "planner/common/date.hpp"
#include "planner/storage/bucketing.hpp"
#include "storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::expect_throws;
using storage_test::TempDir;
using storage_test::write_file;

TableDef make_def(std::vector<ColumnDef> cols) {
  TableDef t;
  t.name = "t";
  t.file = "t.csv";
  t.columns = std::move(cols);
  return t;
}

TableDef typed_def() {
  return make_def({{"id", DataType::bigint(), false},
                   {"n", DataType::integer(), true},
                   {"price", DataType::decimal(15, 2), true},
                   {"day", DataType::date(), true},
                   {"ok", DataType::boolean(), true},
                   {"x", DataType::float64(), true},
                   {"s", DataType::varchar(), true}});
}

/// Writes `text` as t.csv and reads it with `def`.
Table read_text(const TempDir& dir, const TableDef& def, const std::string& text) {
  write_file(dir.file("t.csv"), text);
  return read_csv_table(dir.file("t.csv"), def);
}

/// The error of reading `text`, which must be a DATA_ERROR.
Error read_error(const std::string& text, const TableDef& def) {
  TempDir dir;
  return expect_throws([&] { read_text(dir, def, text); }, ErrorCode::DATA_ERROR);
}

void expect_pos(const Error& e, int line, int col) {
  EXPECT_EQ(e.pos().line, line) << e.what();
  EXPECT_EQ(e.pos().col, col) << e.what();
  EXPECT_NE(e.pos().file.find("t.csv"), std::string::npos) << e.what();
}

const std::string kHeader = "id,n,price,day,ok,x,s\n";

TEST(CsvReaderTest, ParsesEveryTypeQuotesAndNulls) {
  TempDir dir;
  Table t = read_text(dir, typed_def(),
                      "\xEF\xBB\xBF" + kHeader +
                          "1,-7,12.5,1995-06-17,true,2.5,plain\r\n"
                          "2,,-0.01,,0,-1e3,\"with, comma and \"\"quotes\"\"\"\n"
                          "\n"
                          "3,2147483647,,2000-02-29,FALSE,,\"\"\n"
                          "4,0,3,1970-01-01,1,0,\"two\nlines\"");
  ASSERT_EQ(t.buckets.size(), 1u);
  EXPECT_EQ(t.row_count, 4u);
  const auto& c = t.buckets[0];
  EXPECT_EQ(c[0].ints, (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(c[1].get(0).i, -7);
  EXPECT_TRUE(c[1].is_null(1));
  EXPECT_EQ(c[1].get(2).i, 2147483647);
  EXPECT_EQ(c[2].get(0).i, 1250);
  EXPECT_EQ(c[2].get(1).i, -1);
  EXPECT_TRUE(c[2].is_null(2));
  EXPECT_EQ(c[2].get(3).i, 300);
  EXPECT_EQ(format_date(c[3].get(0).i), "1995-06-17");
  EXPECT_TRUE(c[3].is_null(1));
  EXPECT_EQ(format_date(c[3].get(2).i), "2000-02-29");
  EXPECT_EQ(c[4].ints, (std::vector<int64_t>{1, 0, 0, 1}));
  EXPECT_DOUBLE_EQ(c[5].dbls[0], 2.5);
  EXPECT_DOUBLE_EQ(c[5].dbls[1], -1000.0);
  EXPECT_TRUE(c[5].is_null(2));
  EXPECT_EQ(c[6].strs[0], "plain");
  EXPECT_EQ(c[6].strs[1], "with, comma and \"quotes\"");
  EXPECT_FALSE(c[6].is_null(2));  // a quoted empty field is '' , not NULL
  EXPECT_EQ(c[6].strs[2], "");
  EXPECT_EQ(c[6].strs[3], "two\nlines");
}

TEST(CsvReaderTest, BadNumberReportsLineColumnAndText) {
  Error e = read_error(kHeader + "1,2,3.00,1995-01-01,true,1,a\n2,x7,3.00,1995-01-01,true,1,b\n", typed_def());
  expect_pos(e, 3, 3);
  EXPECT_NE(e.message().find("column 'n'"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("'x7'"), std::string::npos) << e.message();

  e = read_error(kHeader + "1,2147483648,1,,,,\n", typed_def());  // INTEGER overflow
  expect_pos(e, 2, 3);
  e = read_error(kHeader + "1,1,12345678901234.00,,,,\n", typed_def());  // more than 13 integer digits
  expect_pos(e, 2, 5);
  EXPECT_NE(e.message().find("DECIMAL(15,2)"), std::string::npos) << e.message();
  e = read_error(kHeader + "1,1,1,,maybe,,\n", typed_def());
  expect_pos(e, 2, 8);
  e = read_error(kHeader + "1,1,1,,,1.5x,\n", typed_def());
  expect_pos(e, 2, 9);
}

TEST(CsvReaderTest, BadDateReportsPosition) {
  Error e = read_error(kHeader + "1,1,1.00,1995-02-30,true,1,a\n", typed_def());
  expect_pos(e, 2, 10);
  EXPECT_NE(e.message().find("column 'day'"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("1995-02-30"), std::string::npos) << e.message();
}

TEST(CsvReaderTest, WrongFieldCountReportsPosition) {
  Error more = read_error(kHeader + "1,1,1,,,,a,extra\n", typed_def());
  expect_pos(more, 2, 12);
  EXPECT_NE(more.message().find("expected 7 fields, found 8"), std::string::npos) << more.message();
  Error fewer = read_error(kHeader + "1,1,1,,,\n", typed_def());
  expect_pos(fewer, 2, 9);
  EXPECT_NE(fewer.message().find("found 6"), std::string::npos) << fewer.message();
}

TEST(CsvReaderTest, InvalidUtf8IsADataError) {
  Error e = read_error(kHeader + "1,1,1,,,,ok\n2,1,1,,,,bad\xC3\x28text\n", typed_def());
  expect_pos(e, 3, 10);
  EXPECT_NE(e.message().find("invalid UTF-8"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("\\xc3"), std::string::npos) << e.message();  // escaped in the message
  // Overlong encodings and surrogates are rejected too.
  read_error(kHeader + "1,1,1,,,,\xC0\xAF\n", typed_def());
  read_error(kHeader + "1,1,1,,,,\xED\xA0\x80\n", typed_def());
}

TEST(CsvReaderTest, ColumnCountsCharactersNotBytes) {
  // "héllo" is 6 bytes but 5 characters: the bad date starts at character column 7.
  TableDef def = make_def({{"s", DataType::varchar(), true}, {"d", DataType::date(), true}});
  Error e = read_error("s,d\nh\xC3\xA9llo,nope\n", def);
  expect_pos(e, 2, 7);
}

TEST(CsvReaderTest, NullInNonNullableColumnIsAnError) {
  Error e = read_error(kHeader + "1,1,1,,,,a\n,1,1,,,,b\n", typed_def());
  expect_pos(e, 3, 1);
  EXPECT_NE(e.message().find("column 'id' is not nullable"), std::string::npos) << e.message();
}

TEST(CsvReaderTest, HeaderMustMatchDeclaredColumns) {
  Error e = read_error("id,n,cost,day,ok,x,s\n", typed_def());
  expect_pos(e, 1, 6);
  EXPECT_NE(e.message().find("expected column 'price'"), std::string::npos) << e.message();
  Error empty = read_error("", typed_def());
  EXPECT_EQ(empty.pos().line, 1);
  EXPECT_NE(empty.message().find("missing header"), std::string::npos);
  // Header names compare case-insensitively.
  TempDir dir;
  EXPECT_EQ(read_text(dir, typed_def(), "ID,N,Price,DAY,ok,x,S\n").row_count, 0u);
}

TEST(CsvReaderTest, QuotingErrorsAndLinesAfterMultiLineFields) {
  TableDef def = make_def({{"a", DataType::varchar(), true}, {"b", DataType::integer(), true}});
  Error open = read_error("a,b\n\"never closed,1\n", def);
  expect_pos(open, 2, 1);
  EXPECT_NE(open.message().find("unterminated"), std::string::npos);
  Error after = read_error("a,b\n\"x\"y,1\n", def);
  expect_pos(after, 2, 4);
  // A quoted field spanning two lines: the bad number on the next record is on line 5.
  Error later = read_error("a,b\n\"one\ntwo\",1\nok,2\nfine,zz\n", def);
  expect_pos(later, 5, 6);
}

TEST(CsvReaderTest, ReadsFilesLargerThanTheReadWindow) {
  // ~20 MB so that records (including multi-line quoted ones) straddle the 16 MB read window.
  TableDef def = make_def({{"k", DataType::bigint(), false}, {"s", DataType::varchar(), true}});
  std::string text = "k,s\n";
  const int rows = 400000;
  std::string pad(40, 'p');
  for (int i = 0; i < rows; ++i) {
    text += std::to_string(i);
    text += i % 97 == 0 ? ",\"multi\nline " + pad + "\"\n" : "," + pad + "\n";
  }
  text += "oops,x\n";
  TempDir dir;
  Error e = expect_throws([&] { read_text(dir, def, text); }, ErrorCode::DATA_ERROR);
  int multi = (rows + 96) / 97;
  EXPECT_EQ(e.pos().line, 2 + rows + multi);
  EXPECT_EQ(e.pos().col, 1);

  text.resize(text.size() - 7);
  Table t = read_text(dir, def, text);
  EXPECT_EQ(t.row_count, static_cast<uint64_t>(rows));
  EXPECT_EQ(t.buckets[0][0].ints.back(), rows - 1);
  EXPECT_EQ(t.buckets[0][1].strs[97], "multi\nline " + pad);
}

TEST(CsvReaderTest, RowsLandInTheirHashBuckets) {
  TableDef def = make_def({{"k", DataType::bigint(), true}, {"s", DataType::varchar(), true}});
  def.distribution = DistributionKind::Hash;
  def.distribution_columns = {"k", "s"};
  def.buckets = 5;
  std::string text = "k,s\n";
  for (int i = 0; i < 2000; ++i)
    text += (i % 50 == 0 ? "" : std::to_string(i % 300)) + ",v" + std::to_string(i % 7) + "\n";
  TempDir dir;
  Table t = read_text(dir, def, text);
  ASSERT_EQ(t.buckets.size(), 5u);
  uint64_t total = 0;
  for (size_t b = 0; b < t.buckets.size(); ++b) {
    const auto& cols = t.buckets[b];
    size_t n = cols[0].size();
    total += n;
    EXPECT_GT(n, 0u);
    std::vector<uint32_t> buckets;
    assign_buckets(def, cols, n, 0, buckets);
    for (size_t r = 0; r < n; ++r) ASSERT_EQ(buckets[r], b) << "row " << r << " of bucket " << b;
  }
  EXPECT_EQ(total, 2000u);

  def.distribution = DistributionKind::Random;
  def.distribution_columns.clear();
  def.buckets = 3;
  Table r = read_text(dir, def, text);
  EXPECT_EQ(r.buckets[0][0].size(), 667u);
  EXPECT_EQ(r.buckets[1][0].size(), 667u);
  EXPECT_EQ(r.buckets[2][0].size(), 666u);
}

TEST(CsvReaderTest, MissingFileIsAnIoError) {
  TempDir dir;
  expect_throws([&] { read_csv_table(dir.file("absent.csv"), typed_def()); }, ErrorCode::IO_ERROR);
}

}  // namespace
}  // namespace hindsight
