// The progress bar's line (cli/progress.hpp): the bar's fill, the count, the label, and that it never exceeds the
// terminal's width (a wrapped line would not be rewritten in place by '\r').
#include "cli/progress.hpp"

#include <gtest/gtest.h>

namespace hindsight::cli {
namespace {

TEST(ProgressLine, FillCountAndLabel) {
  EXPECT_EQ(progress_line(0, 4, "q1", 80), "[>                   ] 1/4 q1");
  EXPECT_EQ(progress_line(2, 4, "q3 (feedback on)", 80), "[==========>         ] 3/4 q3 (feedback on)");
  EXPECT_EQ(progress_line(11, 34, "three_pairs_seven_way (feedback on)", 80),
            "[======>             ] 12/34 three_pairs_seven_way (feedback on)");
  EXPECT_EQ(progress_line(4, 4, "", 80), "[====================] 4/4") << "done: full, no '>'";
  EXPECT_EQ(progress_line(9, 4, "x", 80), "[====================] 4/4 x") << "done beyond total is total";
  EXPECT_EQ(progress_line(0, 0, "", 80), "[====================] 0/0");
}

TEST(ProgressLine, FitsTheTerminal) {
  const std::string label = "a_very_long_query_name_that_goes_on_and_on (feedback oracle)";
  // Narrower terminals: the bar narrows first (to 5 columns), then the label is cut; never width columns or more.
  EXPECT_EQ(progress_line(5, 10, label, 60), "[==>  ] 6/10 a_very_long_query_name_that_goes_on_and_on (fe");  // 59 columns
  EXPECT_EQ(progress_line(5, 10, "q6", 20), "[====>    ] 6/10 q6");  // a 9-column bar: 19 columns
  for (size_t width : {1, 2, 10, 30, 60, 80, 200}) {
    EXPECT_LT(progress_line(5, 10, label, width).size(), std::max<size_t>(width, 1)) << width;  // ASCII: bytes = columns
  }
  // A multi-byte character is one column, and a cut keeps whole characters.
  EXPECT_EQ(progress_line(0, 1, "ab⋈⋈⋈⋈⋈⋈⋈⋈", 20), "[>    ] 1/1 ab⋈⋈⋈⋈⋈");
  EXPECT_EQ(progress_line(0, 1, "a⋈b", 20), "[>        ] 1/1 a⋈b");  // ⋈ counted as 1 column, not 3 bytes
}

}  // namespace
}  // namespace hindsight::cli
