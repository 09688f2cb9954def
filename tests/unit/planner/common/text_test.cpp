#include "planner/common/text.hpp"

#include <gtest/gtest.h>

namespace hindsight {
namespace {

TEST(TextTest, Utf8SequenceLengthsAndTheFirstBadByte) {
  EXPECT_EQ(utf8_sequence_length("a", 0), 1u);
  EXPECT_EQ(utf8_sequence_length(std::string_view("\0", 1), 0), 1u);
  EXPECT_EQ(utf8_sequence_length("\xC3\xA9", 0), 2u);          // é
  EXPECT_EQ(utf8_sequence_length("\xE2\x82\xAC", 0), 3u);      // €
  EXPECT_EQ(utf8_sequence_length("\xF0\x9F\x98\x80", 0), 4u);  // 😀
  EXPECT_EQ(utf8_sequence_length("\xE9", 0), 0u);              // Latin-1 é
  EXPECT_EQ(utf8_sequence_length("\x80", 0), 0u);              // stray continuation byte
  EXPECT_EQ(utf8_sequence_length("\xC0\xAF", 0), 0u);          // overlong '/'
  EXPECT_EQ(utf8_sequence_length("\xED\xA0\x80", 0), 0u);      // surrogate U+D800
  EXPECT_EQ(utf8_sequence_length("\xF4\x90\x80\x80", 0), 0u);  // beyond U+10FFFF
  EXPECT_EQ(utf8_sequence_length("\xE2\x82", 0), 0u);          // truncated

  EXPECT_EQ(invalid_utf8_offset("SELECT 'caf\xC3\xA9'"), std::string_view::npos);
  EXPECT_EQ(invalid_utf8_offset("SELECT 'caf\xE9'"), 11u);
}

TEST(TextTest, PrintableEscapesControlAndInvalidBytesAndCuts) {
  EXPECT_EQ(printable("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(printable(std::string_view("a\0b\n\xE9", 5)), "a\\x00b\\x0a\\xe9");
  std::string big(1000000, 'x');
  std::string shown = printable(big);
  EXPECT_EQ(shown, std::string(kMaxEchoBytes, 'x') + "\xE2\x80\xA6");
  // The cut never splits a character.
  std::string accents;
  for (int i = 0; i < 300; ++i) accents += "\xC3\xA9";
  EXPECT_EQ(invalid_utf8_offset(printable(accents, 201)), std::string_view::npos);
  EXPECT_EQ(printable(accents, 201).size(), 200u + 3u);
}

TEST(TextTest, BoundedMessagesKeepHeadAndTail) {
  EXPECT_EQ(bounded_message("column 'x' does not exist"), "column 'x' does not exist");
  EXPECT_EQ(bounded_message("two\nlines\tand tab"), "two\nlines\tand tab");
  EXPECT_EQ(bounded_message(std::string_view("nul \0 here", 10)), "nul \\x00 here");
  std::string m = "column '" + std::string(1000000, 'y') + "' does not exist";
  std::string b = bounded_message(m);
  EXPECT_LT(b.size(), 1010u);
  EXPECT_EQ(b.rfind("column 'yyy", 0), 0u);
  EXPECT_NE(b.find("\xE2\x80\xA6"), std::string::npos);
  EXPECT_EQ(b.substr(b.size() - 16), "' does not exist");
}

}  // namespace
}  // namespace hindsight
