#include "planner/common/error.hpp"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

#include "planner/common/text.hpp"

namespace hindsight {
namespace {

TEST(CaretExcerptTest, PointsAtTheColumnOfTheLine) {
  EXPECT_EQ(caret_excerpt("SELECT 1\nFROM t WHERE x", 2, 6), "  FROM t WHERE x\n       ^");
  // Tabs are kept in the caret line so that the caret lines up in a terminal; a character is one column.
  EXPECT_EQ(caret_excerpt("\tSELECT caf\xC3\xA9, nope", 1, 15), "  \tSELECT caf\xC3\xA9, nope\n  \t            ^");
  EXPECT_EQ(caret_excerpt("SELECT 1", 3, 1), "");
}

TEST(CaretExcerptTest, ALongLineShowsAWindowAroundTheColumn) {
  std::string line = "SELECT " + std::string(1000000, 'x') + " FROM nation";
  std::string e = caret_excerpt(line, 1, 8);
  EXPECT_LT(e.size(), 2 * kMaxEchoBytes + 20);
  EXPECT_EQ(e.rfind("  SELECT xxx", 0), 0u);
  EXPECT_EQ(e.substr(e.size() - 11), "\n         ^");

  // Near the end of the line: "…" in front, the caret under the 'F' of FROM.
  std::string tail = caret_excerpt(line, 1, static_cast<int>(line.size()) - 10);
  EXPECT_LT(tail.size(), 2 * kMaxEchoBytes + 20);
  EXPECT_EQ(tail.rfind("  \xE2\x80\xA6", 0), 0u);
  const size_t nl = tail.find('\n');
  const std::string shown = tail.substr(0, nl), caret = tail.substr(nl + 1);
  // Display columns: the shown line has "…" (one column, three bytes) where the caret line has one space.
  EXPECT_EQ(shown.substr(caret.size() - 1 + 2, 4), "FROM");
}

TEST(CaretExcerptTest, ControlAndInvalidBytesAreEscaped) {
  std::string sql("SELECT 1\0 + '\xE9'", 15);
  std::string e = caret_excerpt(sql, 1, 9);
  EXPECT_EQ(e.find('\0'), std::string::npos);
  EXPECT_EQ(invalid_utf8_offset(e), std::string_view::npos);
  EXPECT_EQ(e, "  SELECT 1\\x00 + '\\xe9'\n          ^");
}

TEST(ErrorTest, MessagesAreBoundedAndPrintable) {
  Error e(ErrorCode::BIND_ERROR, "column '" + std::string(1 << 20, 'x') + "' does not exist", SourcePos{"", 1, 8});
  EXPECT_LT(e.message().size(), 1100u);
  EXPECT_LT(std::string(e.what()).size(), 1200u);
  Error nul(ErrorCode::PARSE_ERROR, std::string("bad \0 byte", 10));
  EXPECT_EQ(nul.message(), "bad \\x00 byte");
  EXPECT_EQ(std::string(nul.what()), "PARSE_ERROR: bad \\x00 byte");
}

TEST(ErrorTest, WithPositionKeepsCodeAndMessage) {
  Error e(ErrorCode::DATA_ERROR, "division by zero");
  Error p = e.with_position(SourcePos{"", 2, 5}, "  x / 0\n      ^");
  EXPECT_EQ(p.code(), ErrorCode::DATA_ERROR);
  EXPECT_EQ(p.message(), "division by zero");
  EXPECT_EQ(p.pos().line, 2);
  EXPECT_EQ(p.pos().col, 5);
  EXPECT_EQ(p.format(), "DATA_ERROR at 2:5: division by zero\n  x / 0\n      ^");
}

template <class Ex>
Error as_error(Ex ex) {
  try {
    throw ex;
  } catch (...) {
    return current_exception_as_error();
  }
}

TEST(ErrorTest, EveryExceptionBecomesATypedError) {
  EXPECT_EQ(as_error(Error(ErrorCode::TIMEOUT, "late")).code(), ErrorCode::TIMEOUT);
  EXPECT_EQ(as_error(std::bad_alloc()).code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
  Error logic = as_error(std::logic_error("dpccp: broken"));
  EXPECT_EQ(logic.code(), ErrorCode::INTERNAL);
  EXPECT_NE(logic.message().find("dpccp: broken"), std::string::npos);
  EXPECT_EQ(as_error(42).code(), ErrorCode::INTERNAL);
}

TEST(ErrorTest, AssertThrowsInternalWithFileAndLine) {
  try {
    HS_ASSERT(1 + 1 == 3, "arithmetic is broken");
    FAIL() << "HS_ASSERT did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::INTERNAL);
    EXPECT_NE(e.message().find("arithmetic is broken (" __FILE__ ":"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace hindsight
