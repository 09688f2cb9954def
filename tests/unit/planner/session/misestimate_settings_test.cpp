// The settings of misestimate, slow, the regression guard and failing early (docs/reexec.md).
#include <gtest/gtest.h>

#include "planner/session/settings.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::expect_error;

TEST(MisestimateSettingsTest, DefaultsParseAndBadValuesAreRefused) {
  Settings s;
  EXPECT_EQ(s.reexec_qerror_threshold, 10);
  EXPECT_DOUBLE_EQ(s.reexec_min_gain, 0.2);
  EXPECT_EQ(s.reexec_on_misestimate, "learn");
  EXPECT_EQ(s.reexec_slow_factor, 4);
  EXPECT_EQ(s.reexec_slow_ms, -1);
  EXPECT_TRUE(s.regression_guard);
  EXPECT_TRUE(s.reexec_fail_early);
  EXPECT_TRUE(s.reexec_count_scans);
  EXPECT_FALSE(s.count_scans_first);
  EXPECT_TRUE(s.filter_sample);
  EXPECT_EQ(s.reexec_spill_in_place, Settings::SpillInPlace::On);

  apply_setting(s, "reexec_qerror_threshold", "25");
  EXPECT_EQ(s.reexec_qerror_threshold, 25);
  apply_setting(s, "reexec_min_gain", "35%");
  EXPECT_DOUBLE_EQ(s.reexec_min_gain, 0.35);
  apply_setting(s, "reexec_min_gain", "0.5");
  EXPECT_DOUBLE_EQ(s.reexec_min_gain, 0.5);
  apply_setting(s, "reexec_on_misestimate", "RERUN");
  EXPECT_EQ(s.reexec_on_misestimate, "rerun");
  apply_setting(s, "reexec_slow_factor", "0");
  EXPECT_EQ(s.reexec_slow_factor, 0);
  apply_setting(s, "reexec_slow_ms", "2s");
  EXPECT_EQ(s.reexec_slow_ms, 2000);
  apply_setting(s, "reexec_slow_ms", "0");
  EXPECT_EQ(s.reexec_slow_ms, 0);
  apply_setting(s, "reexec_slow_ms", "off");
  EXPECT_EQ(s.reexec_slow_ms, -1);
  apply_setting(s, "regression_guard", "off");
  EXPECT_FALSE(s.regression_guard);
  apply_setting(s, "reexec_fail_early", "OFF");
  EXPECT_FALSE(s.reexec_fail_early);
  apply_setting(s, "reexec_fail_early", "true");
  EXPECT_TRUE(s.reexec_fail_early);
  apply_setting(s, "reexec_count_scans", "off");
  EXPECT_FALSE(s.reexec_count_scans);
  apply_setting(s, "count_scans_first", "on");
  EXPECT_TRUE(s.count_scans_first);
  apply_setting(s, "filter_sample", "OFF");
  EXPECT_FALSE(s.filter_sample);
  apply_setting(s, "reexec_spill_in_place", "off");
  EXPECT_EQ(s.reexec_spill_in_place, Settings::SpillInPlace::Off);
  apply_setting(s, "reexec_spill_in_place", "Same_Plan");
  EXPECT_EQ(s.reexec_spill_in_place, Settings::SpillInPlace::SamePlan);
  apply_setting(s, "reexec_spill_in_place", "on");
  EXPECT_EQ(s.reexec_spill_in_place, Settings::SpillInPlace::On);
  apply_setting(s, "mapper_strict", "1");  // the booleans share one parser
  EXPECT_TRUE(s.mapper_strict);
  apply_setting(s, "spill", "on");
  EXPECT_TRUE(s.spill);

  expect_error([&] { apply_setting(s, "reexec_qerror_threshold", "0.5"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_qerror_threshold", "ten"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_min_gain", "120%"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_min_gain", "-0.1"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_on_misestimate", "maybe"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_slow_factor", "0.5"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_slow_ms", "-5"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "regression_guard", "sometimes"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_fail_early", "early"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_spill_in_place", "maybe"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_count_scans", "some"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "count_scans_first", "first"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "filter_sample", "sampled"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "mapper_strict", "yes"); }, ErrorCode::TYPE_ERROR);
  // Re-execution settings apply to the whole statement, never as an overlay.
  expect_error([&] { parse_overlay(s, "reexec_min_gain=0.5"); }, ErrorCode::TYPE_ERROR);
}

}  // namespace
}  // namespace hindsight
