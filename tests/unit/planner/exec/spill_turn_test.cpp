// The spill turn (ExecContext::spill_turn, ExecOperator::charge_or_spill): operators refused a charge with spilling
// on spill one at a time, and one refused while another spills waits for that spill's memory and charges again.
// Without the turn, the instances of a fragment that reach the limit together all spilled (q12 at SF 1 wrote its
// join's sides from one to three instances, run to run, where one spill made room).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;

/// An operator that charges on demand: what a join build or an aggregate does as its table grows.
class Charger final : public ExecOperator {
 public:
  Charger(ExecContext* ctx, int worker) : ExecOperator("Charger", ctx, worker) {}
  using ExecOperator::charge;
  using ExecOperator::charge_or_spill;
  void give_back() { release(held_memory_); }
  int64_t held() const { return held_memory_; }

 protected:
  bool next_impl(Batch&) override { return false; }
};

/// Two workers' operators under a limit of 1,000 bytes with spilling on, holding `a_holds` and `b_holds`.
struct TwoChargers {
  TwoChargers(int64_t a_holds, int64_t b_holds) {
    tc.ctx.spill.store(true);
    a.charge(a_holds);
    b.charge(b_holds);
  }
  TestContext tc{1000, 2};
  Charger a{&tc.ctx, 0};
  Charger b{&tc.ctx, 1};
};

TEST(SpillTurnTest, ARefusedChargeWaitsForTheSpillUnderWayAndChargesAgain) {
  TwoChargers t(800, 100);
  Charger &a = t.a, &b = t.b;

  std::atomic<bool> a_spilling{false};
  bool a_charged = true;
  std::thread first([&] {
    a_charged = a.charge_or_spill(200, 1000, [&] {
      a_spilling = true;
      // B is refused meanwhile (900 + 200 > 1000): it must wait for this spill, not spill as well.
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      a.give_back();
    });
  });
  while (!a_spilling) std::this_thread::yield();
  bool b_spilled = false;
  const bool b_charged = b.charge_or_spill(200, 300, [&] {
    b_spilled = true;
    b.give_back();
  });
  first.join();

  EXPECT_FALSE(a_charged);
  EXPECT_TRUE(b_charged);
  EXPECT_FALSE(b_spilled);
  EXPECT_EQ(b.held(), 300);
  EXPECT_EQ(t.tc.memory.used(), 300);
}

TEST(SpillTurnTest, ARefusalThatSpillingDoesNotMendSpillsAgain) {
  // The turn only orders the spills: when the memory given back is still not enough, the next one spills too.
  TwoChargers t(100, 800);
  Charger &a = t.a, &b = t.b;
  int spills = 0;
  EXPECT_FALSE(a.charge_or_spill(200, 300, [&] {
    ++spills;
    a.give_back();
  }));
  EXPECT_FALSE(b.charge_or_spill(300, 1100, [&] {
    ++spills;
    b.give_back();
  }));
  EXPECT_EQ(spills, 2);
  EXPECT_EQ(t.tc.memory.used(), 0);
}

TEST(SpillTurnTest, WithSpillingOffARefusedChargeFailsWithoutSpilling) {
  TestContext tc(1000, 1);
  Charger a(&tc.ctx, 0);
  a.charge(900);
  bool spilled = false;
  try {
    a.charge_or_spill(200, 1100, [&] { spilled = true; });
    FAIL() << "the charge over the limit went through";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
  }
  EXPECT_FALSE(spilled);
  EXPECT_EQ(tc.memory.used(), 900);
}

}  // namespace
}  // namespace hindsight
