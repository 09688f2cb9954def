#include <gtest/gtest.h>

#include "planner/session/settings.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::expect_error;

TEST(ReexecSettingsTest, StrategiesByNameAndNone) {
  Settings s;
  EXPECT_EQ(s.reexec_strategies, reexec_strategy_names());  // the default list
  apply_setting(s, "reexec_strategies", "retry, Reoptimize");
  EXPECT_EQ(s.reexec_strategies, (std::vector<std::string>{"retry", "reoptimize"}));
  apply_setting(s, "reexec_strategies", "none");
  EXPECT_TRUE(s.reexec_strategies.empty());
  apply_setting(s, "reexec_strategies", "reoptimize,overlay,retry,misestimate,slow");
  EXPECT_EQ(s.reexec_strategies.size(), 5u);
  expect_error([&] { apply_setting(s, "reexec_strategies", "reoptimize,magic"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_strategies", "none,retry"); }, ErrorCode::TYPE_ERROR);
}

TEST(ReexecSettingsTest, LimitsAndOverlays) {
  Settings s;
  EXPECT_EQ(s.reexec_max_attempts, 3);
  EXPECT_EQ(s.reexec_time_budget_ms, 0);
  apply_setting(s, "reexec_max_attempts", "5");
  EXPECT_EQ(s.reexec_max_attempts, 5);
  expect_error([&] { apply_setting(s, "reexec_max_attempts", "0"); }, ErrorCode::TYPE_ERROR);
  apply_setting(s, "reexec_time_budget", "2s");
  EXPECT_EQ(s.reexec_time_budget_ms, 2000);
  apply_setting(s, "reexec_time_budget", "none");
  EXPECT_EQ(s.reexec_time_budget_ms, 0);
  expect_error([&] { apply_setting(s, "reexec_time_budget", "soon"); }, ErrorCode::TYPE_ERROR);

  apply_setting(s, "reexec_overlay", "workers=8; memory_limit=1GB");
  EXPECT_EQ(s.reexec_overlay, "workers=8; memory_limit=1GB");
  EXPECT_EQ(s.workers, 0);  // checked, not applied
  auto pairs = parse_overlay(s, s.reexec_overlay);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1], (std::pair<std::string, std::string>{"memory_limit", "1GB"}));
  expect_error([&] { apply_setting(s, "reexec_overlay", "workers=many"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_overlay", "colour=blue"); }, ErrorCode::BIND_ERROR);
  expect_error([&] { apply_setting(s, "reexec_overlay", "reexec_max_attempts=9"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "reexec_overlay", "workers"); }, ErrorCode::TYPE_ERROR);

  apply_setting(s, "reexec_overlay.memory_limit_exceeded", "memory_limit=2GB");
  EXPECT_EQ(s.reexec_overlay_by_code.at("MEMORY_LIMIT_EXCEEDED"), "memory_limit=2GB");
  // Only the errors a statement may be re-executed after take an overlay.
  expect_error([&] { apply_setting(s, "reexec_overlay.DATA_ERROR", "workers=2"); }, ErrorCode::BIND_ERROR);
  apply_setting(s, "reexec_overlay.MEMORY_LIMIT_EXCEEDED", "");
  EXPECT_TRUE(s.reexec_overlay_by_code.empty());
}

TEST(ReexecSettingsTest, DottedSetNamesParse) {
  Session session(testing::tpch_db());
  auto r = session.run_script("SET reexec_overlay.TIMEOUT = 'timeout=10s'; SELECT 1");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(session.settings().reexec_overlay_by_code.at("TIMEOUT"), "timeout=10s");
  auto bad = session.run_script("SET reexec_overlay. = 'x'");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error->code(), ErrorCode::PARSE_ERROR);
}

TEST(ReexecSettingsTest, ReexecutableErrorsAreTheTransientKinds) {
  EXPECT_TRUE(is_reexecutable_error(ErrorCode::MEMORY_LIMIT_EXCEEDED));
  EXPECT_TRUE(is_reexecutable_error(ErrorCode::TIMEOUT));
  EXPECT_TRUE(is_reexecutable_error(ErrorCode::TRANSIENT));
  for (ErrorCode c : {ErrorCode::PARSE_ERROR, ErrorCode::BIND_ERROR, ErrorCode::TYPE_ERROR, ErrorCode::DATA_ERROR,
                      ErrorCode::IO_ERROR, ErrorCode::INTERNAL, ErrorCode::NOT_SUPPORTED, ErrorCode::STORE_ERROR})
    EXPECT_FALSE(is_reexecutable_error(c)) << error_code_name(c);
}

}  // namespace
}  // namespace hindsight
