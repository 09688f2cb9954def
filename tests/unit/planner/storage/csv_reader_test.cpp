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

TEST(CsvReaderTest, BlankLinesAreNullRowsOfANullableOneColumnTable) {
  // What `--format csv` writes for the rows 'a', NULL, '', NULL, 'b', NULL: the last blank line is a row too.
  TempDir dir;
  Table t = read_text(dir, make_def({{"s", DataType::varchar(), true}}), "s\na\n\n\"\"\n\r\nb\n\n");
  ASSERT_EQ(t.row_count, 6u);
  const ColumnVector& s = t.buckets[0][0];
  EXPECT_EQ(s.strs[0], "a");
  EXPECT_TRUE(s.is_null(1));
  EXPECT_FALSE(s.is_null(2));
  EXPECT_EQ(s.strs[2], "");
  EXPECT_TRUE(s.is_null(3));
  EXPECT_EQ(s.strs[4], "b");
  EXPECT_TRUE(s.is_null(5));

  Table n = read_text(dir, make_def({{"n", DataType::integer(), true}}), "n\n1\n\n2");
  ASSERT_EQ(n.row_count, 3u);
  EXPECT_TRUE(n.buckets[0][0].is_null(1));
  EXPECT_EQ(n.buckets[0][0].get(2).i, 2);
}

TEST(CsvReaderTest, BlankLinesElsewhereAreErrorsUnlessTrailing) {
  TableDef two = make_def({{"a", DataType::integer(), true}, {"b", DataType::varchar(), true}});
  Error mid = read_error("a,b\n1,x\n\n2,y\n", two);
  expect_pos(mid, 3, 1);
  EXPECT_NE(mid.message().find("blank line: expected 2 fields"), std::string::npos) << mid.message();
  // Only the first of several blank lines is reported, wherever the next record is.
  expect_pos(read_error("a,b\n1,x\n\r\n\n\n2,y", two), 3, 1);
  TempDir dir;
  EXPECT_EQ(read_text(dir, two, "a,b\n1,x\n2,y\n\n\r\n\n").row_count, 2u);
  EXPECT_EQ(read_text(dir, two, "a,b\n\n").row_count, 0u);

  // A NOT NULL single column cannot hold the NULL a blank line would be.
  TableDef strict = make_def({{"s", DataType::varchar(), false}});
  Error e = read_error("s\na\n\nb\n", strict);
  expect_pos(e, 3, 1);
  EXPECT_NE(e.message().find("column 's' is not nullable"), std::string::npos) << e.message();
  EXPECT_EQ(read_text(dir, strict, "s\na\nb\n\n\n").row_count, 2u);

  // The header cannot be blank (it used to be skipped, with the next line taken as the header).
  Error header = read_error("\na,b\n1,x\n", two);
  expect_pos(header, 1, 1);
  EXPECT_NE(header.message().find("first line is blank"), std::string::npos) << header.message();
}

TEST(CsvReaderTest, QuotedEmptyFieldIsAnErrorForNonTextTypes) {
  for (const char* row : {"1,\"\",,,,,\n", "1,,\"\",,,,\n", "1,,,\"\",,,\n", "1,,,,\"\",,\n", "1,,,,,\"\",\n"}) {
    Error e = read_error(kHeader + row, typed_def());
    EXPECT_EQ(e.pos().line, 2) << row;
    EXPECT_NE(e.message().find("quoted empty field is an empty string"), std::string::npos) << e.message();
  }
  expect_pos(read_error(kHeader + "1,\"\",,,,,\n", typed_def()), 2, 3);
  // ... also in a hash key column, which is parsed first to pick the bucket.
  TableDef hashed = make_def({{"k", DataType::bigint(), true}, {"s", DataType::varchar(), true}});
  hashed.distribution = DistributionKind::Hash;
  hashed.distribution_columns = {"k"};
  hashed.buckets = 3;
  expect_pos(read_error("k,s\n1,a\n\"\",b\n", hashed), 3, 1);
}

TEST(CsvReaderTest, QuotedFieldsKeepCommasQuotesAndLineBreaksWithCrLfRecords) {
  TableDef def = make_def({{"a", DataType::varchar(), true}, {"b", DataType::varchar(), true}});
  TempDir dir;
  Table t = read_text(dir, def,
                      "a,b\r\n"
                      "\"x,\r\ny\",\"\"\"\"\r\n"
                      "\" lead\",\"trail \"\r\n"
                      "\"\r\",\"\n\"\r\n"
                      "\"\",\r\n"
                      "last,\"no line end\"");
  ASSERT_EQ(t.row_count, 5u);
  const auto& c = t.buckets[0];
  EXPECT_EQ(c[0].strs[0], "x,\r\ny");
  EXPECT_EQ(c[1].strs[0], "\"");
  EXPECT_EQ(c[0].strs[1], " lead");
  EXPECT_EQ(c[1].strs[1], "trail ");
  EXPECT_EQ(c[0].strs[2], "\r");
  EXPECT_EQ(c[1].strs[2], "\n");
  EXPECT_EQ(c[0].strs[3], "");
  EXPECT_FALSE(c[0].is_null(3));
  EXPECT_TRUE(c[1].is_null(3));
  EXPECT_EQ(c[0].strs[4], "last");
  EXPECT_EQ(c[1].strs[4], "no line end");
}

TEST(CsvReaderTest, MissingFileIsAnIoError) {
  TempDir dir;
  expect_throws([&] { read_csv_table(dir.file("absent.csv"), typed_def()); }, ErrorCode::IO_ERROR);
}

}  // namespace
}  // namespace hindsight
