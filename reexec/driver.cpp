#include "reexec/driver.hpp"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "planner/common/elapsed.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "planner/session/explain.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/session/stats_collection.hpp"
#include "stats_store/memory_repository.hpp"
#include "reexec/plan_diff.hpp"
#include "reexec/plugins/plugins.hpp"

namespace hindsight::reexec {

namespace {

AttemptOutcome outcome_of(const AttemptRun& run) {
  AttemptOutcome o;
  o.number = run.number;
  if (run.error) {
    o.error = run.error->code();
    o.error_detail = &*run.error;
  }
  o.plan = run.compiled.get();
  o.run = run.executed_run ? &run.executed : nullptr;
  o.observed = run.observed ? &*run.observed : nullptr;
  o.fault_injected = run.executed.fault_fired;
  o.elapsed_ms = run.executed.elapsed_ms;
  return o;
}

/// The plugins of one statement, each call guarded: a plugin that throws anyway counts as "no"
/// and is reported once.
class Plugins {
 public:
  Plugins(const std::vector<std::string>& names, std::vector<std::string>* warnings) : warnings_(warnings) {
    for (auto& n : names)
      if (auto p = make_plugin(n)) plugins_.push_back(std::move(p));
  }
  std::vector<std::unique_ptr<Plugin>>& all() { return plugins_; }

  template <class Fn>
  bool call(Plugin& p, Fn&& fn) {
    try {
      return fn();
    } catch (...) {
      if (warnings_) warnings_->push_back(fmt::format("re-execution: plugin {} failed: {}", p.name(),
                                                      current_exception_as_error().message()));
      return false;
    }
  }

 private:
  std::vector<std::unique_ptr<Plugin>> plugins_;
  std::vector<std::string>* warnings_;
};

void warn(const StatementInput& in, std::string text) {
  if (in.warnings) in.warnings->push_back(std::move(text));
}

/// "; counted 2 filtered scans first (1.2 ms): customer 6.0k -> 28k rows, part 418 -> 6.6k rows" (reexec_count_scans:
/// the scans whose count changed the estimate shown; empty when none was counted).
std::string counted_note(const AttemptRun& run) {
  if (run.counted.empty() || !run.counting) return "";
  std::string shown;
  for (const CountedScan& c : run.counted) {
    const std::string est = short_count(c.estimate), rows = short_count(c.rows);
    if (est != rows) shown += fmt::format("{}{} {} -> {} rows", shown.empty() ? ": " : ", ", c.table, est, rows);
  }
  const size_t n = run.counted.size();
  return fmt::format("; counted {} filtered scan{} first ({:.1f} ms){}", n, n == 1 ? "" : "s", run.counting->elapsed_ms,
                     shown.empty() ? ": as estimated" : shown);
}

/// Spilling in place: plans attempt number + 1 as the driver would after MEMORY_LIMIT_EXCEEDED (with `next`, the
/// settings plus spill = on), with what the running attempt observed so far (`seen`) known on top of the scopes,
/// and says whether the attempt goes on spilling: when that gives the plan that runs, or (reexec_spill_in_place =
/// on) when the cost model predicts that finishing it spilling costs less than running the re-plan from the start:
///   finish  = the plan's cost with what it observed - the share it already did + spill_cost(its peak - limit)
///   restart = the re-plan's cost + spill_cost(its peak - limit)
/// (plan_progress, spill_cost). Runs on the overflowing worker's thread; records nothing.
bool spills_in_place(const StatementInput& in, CompiledQuery& plan, int number, const Settings& next,
                     const ExecutedQuery& seen, std::string& why) {
  const auto t0 = std::chrono::steady_clock::now();
  auto mapping = map_query(plan, &seen, next, /*detailed_labels=*/false);
  stats::AttemptStats observed = collect_attempt_stats(plan, seen, *mapping, number);
  stats::MemoryStatsRepository so_far;
  so_far.record(observed);
  StatementInput probe = in;
  probe.scopes.insert(probe.scopes.begin(), &so_far);
  AttemptRun again;
  again.number = number + 1;
  again.settings = next;
  plan_attempt(probe, again);
  if (!again.compiled) {
    why = "the re-plan failed: not spilling in place";
    return false;
  }
  if (plan_hash(*again.compiled) == plan_hash(plan)) {
    why = fmt::format("a re-plan with what it observed so far keeps the plan ({:.1f} ms): spilling in place",
                      ms_since(t0));
    return true;
  }
  const std::string diff = describe_plan_change(plan, &seen, *again.compiled);
  why = fmt::format("a re-plan with what it observed so far changes the plan{}", diff.empty() ? "" : ": " + diff);
  if (next.reexec_spill_in_place != Settings::SpillInPlace::On) {
    why += fmt::format(" ({:.1f} ms): not spilling in place", ms_since(t0));
    return false;
  }
  const double limit = static_cast<double>(next.memory_limit);
  const PlanProgress now = plan_progress(plan, &seen, next), fresh = plan_progress(*again.compiled, nullptr, next);
  const double finish = std::max(0.0, now.total - now.done) + spill_cost(now.peak_bytes - limit);
  const double restart = fresh.total + spill_cost(fresh.peak_bytes - limit);
  // The model's costs are rough (a plan cut short is re-estimated from lower bounds; spilling's cost is a guess
  // from its estimated peak): finish only when that is clearly cheaper. 0.65: measured per run in session 25,
  // finishing gained on the cases that weighed 0.5-0.65 and 0.75 was no better overall (docs/reexec.md).
  constexpr double kClearlyCheaper = 0.65;
  const bool finishing = finish < kClearlyCheaper * restart;
  auto over = [&](double peak) {  // what the plan's estimated peak exceeds the limit by
    return peak > limit ? "about " + format_bytes(static_cast<int64_t>(peak - limit)) : std::string("nothing");
  };
  why += fmt::format("; finishing this plan ({:.0f}% done, {} to spill) would cost {}, the new plan {} ({} to spill) "
                     "({:.1f} ms): {}",
                     now.total > 0 ? 100 * now.done / now.total : 0.0, over(now.peak_bytes),
                     short_count(finish), short_count(restart), over(fresh.peak_bytes), ms_since(t0),
                     finishing ? "spilling in place" : "not spilling in place");
  return finishing;
}

/// What the overflow of an attempt may do instead of failing late, armed before it runs when another attempt will
/// answer MEMORY_LIMIT_EXCEEDED (one is left, this attempt does not spill, and a plugin's wants_reexecution says yes
/// to that error in an attempt that ran: asked as the driver asks after a failure, so the plugins stay the one place
/// that knows what they answer):
/// - fail early (reexec_fail_early, MemoryTracker::set_fail_early): the attempt fails as soon as the overflow is
///   foreseeable, costing what it did up to there rather than all of the work up to the limit;
/// - spill in place (reexec_spill_in_place, QueryLimits::spill_in_place), when the plugins' next attempt would be
///   the same plan with spilling on (a plugin answers OverflowAnswer::SpillSamePlan, none OtherSettings): at the
///   first overflow, re-plan as that attempt would be planned, with what this one observed so far; when the plan
///   stays, or finishing it is clearly cheaper than the new one (spills_in_place), this attempt goes on spilling,
///   and its work is not thrown away.
void arm_overflow(const StatementInput& in, AttemptRun& run, Plugins& plugins) {
  if (!run.limits || !run.compiled || run.settings.spill) return;
  if (run.number >= in.settings.reexec_max_attempts) return;
  AttemptOutcome failed;
  failed.number = run.number;
  failed.error = ErrorCode::MEMORY_LIMIT_EXCEEDED;
  failed.plan = run.compiled.get();
  failed.run = &run.executed;
  bool answered = false, same_plan_spills = false, other_settings = false;
  for (auto& p : plugins.all()) {
    answered = plugins.call(*p, [&] { return p->wants_reexecution(failed); }) || answered;
    OverflowAnswer a = OverflowAnswer::None;
    plugins.call(*p, [&] { a = p->after_overflow(failed); return true; });
    same_plan_spills |= a == OverflowAnswer::SpillSamePlan;
    other_settings |= a == OverflowAnswer::OtherSettings;
  }
  run.limits->memory().set_fail_early(answered && run.settings.reexec_fail_early);
  // The oracle's counts come from counting sub-plans, which a re-plan in the middle of a run would repeat.
  if (!answered || !same_plan_spills || other_settings ||
      run.settings.reexec_spill_in_place == Settings::SpillInPlace::Off ||
      run.settings.cardinality == "oracle")
    return;
  Settings next = run.settings;
  apply_setting(next, "spill", "on");
  // Not const: plan_progress writes the running plan's estimates and costs and restores them before it returns;
  // the executor reads none of them while it runs (build_exec_plan read the footprints before the start).
  CompiledQuery* plan = run.compiled.get();
  const int number = run.number;
  run.limits->spill_in_place = [&in, plan, number, next](const ExecutedQuery& seen, std::string& why) {
    return spills_in_place(in, *plan, number, next, seen, why);
  };
}

/// The settings `run` ran under: its own, with spill = on when it went on spilling in place. A successful attempt's
/// cost with what it observed, and the re-plan that misestimate or slow compare with it, are priced under these:
/// planned without the spill that let the attempt finish, every plan over the memory limit would cost
/// CostModelOptions::overflow_penalty, and the comparison would say nothing.
Settings ran_under(const AttemptRun& run) {
  Settings s = run.settings;
  if (run.executed.spilled_in_place) apply_setting(s, "spill", "on");
  return s;
}

}  // namespace

void ReExecDriver::run(const StatementInput& in, StatementResult& result) {
  if (in.settings.reexec_strategies.empty() || !in.execute) {
    SingleAttemptRunner().run(in, result);
    if (in.reoptimize) reoptimize_after(in, nullptr, result);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  Plugins plugins(in.settings.reexec_strategies, in.warnings);
  for (auto& p : plugins.all()) plugins.call(*p, [&] { p->begin(in.settings); return true; });
  // fault_injection's `times` counts the attempts of this statement that get the fault.
  int faults_left = in.settings.fault_injection.times;

  AttemptRun run;
  run.settings = in.settings;
  plan_attempt(in, run);
  arm_overflow(in, run, plugins);
  execute_attempt(in, run);
  if (run.executed.fault_fired) --faults_left;
  const std::optional<RegressionGuardReport> guard = run.guard;
  // Every later attempt is charged the tables this one loaded (they stay loaded in the process, so
  // they would be free otherwise): each attempt runs under the same memory budget.
  std::unique_ptr<QueryLimits> first_limits = std::move(run.limits);
  // A plan made after the last attempt and not run (misestimate/slow learning): EXPLAIN REOPTIMIZATION's.
  std::unique_ptr<CompiledQuery> learned;

  while (true) {
    AttemptOutcome outcome = outcome_of(run);
    if (!outcome.error && run.compiled && run.executed_run && run.executed.exec)
      outcome.observed_cost = plan_cost_observed(*run.compiled, run.executed, ran_under(run));
    for (auto& p : plugins.all()) plugins.call(*p, [&] { p->observe(outcome); return true; });
    // The one place that decides whether a statement may run twice: only without side effects.
    // Every query statement is a SELECT or EXPLAIN today; a statement that writes must come with
    // side_effect_free = false and is then never re-executed, whatever the strategies.
    if (!in.side_effect_free) break;
    std::vector<Plugin*> acting;
    if (outcome.error) {
      if (!is_reexecutable_error(*outcome.error)) break;  // a bind error or division by zero stays an error
      for (auto& p : plugins.all())
        if (plugins.call(*p, [&] { return p->wants_reexecution(outcome); })) acting.push_back(p.get());
    } else {
      // A successful attempt that misestimated or ran slow: re-plan with what it observed (misestimate, slow).
      for (auto& p : plugins.all())
        if (plugins.call(*p, [&] { return p->wants_replan(outcome); })) acting.push_back(p.get());
    }
    if (acting.empty()) break;
    std::string who;
    for (auto* p : acting) who += (who.empty() ? "" : "+") + std::string(p->name());
    const std::string after = outcome.error ? fmt::format("{} after {} in attempt {}", who, error_code_name(*outcome.error), run.number)
                                            : fmt::format("{} after attempt {} succeeded", who, run.number);
    NextAttempt next;
    for (auto* p : acting) plugins.call(*p, [&] { p->prepare(outcome, next); return true; });
    if (next.execute && run.number >= in.settings.reexec_max_attempts) {
      if (in.settings.reexec_max_attempts > 1)
        warn(in, fmt::format("re-execution: {} would run attempt {} after {}, but reexec_max_attempts = {}", who,
                             run.number + 1, outcome.error ? error_code_name(*outcome.error) : "a successful attempt",
                             in.settings.reexec_max_attempts));
      break;
    }
    const int64_t budget = in.settings.reexec_time_budget_ms;
    if (budget > 0 && ms_since(t0) + next.backoff_ms >= static_cast<double>(budget)) {
      warn(in, fmt::format("re-execution: the time budget ({} ms, reexec_time_budget) is spent; attempt {} is not run",
                           budget, run.number + 1));
      break;
    }
    if (next.backoff_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(next.backoff_ms));

    AttemptRun following;
    following.number = run.number + 1;
    // After a failure, the session's settings and this failure's overlays; after a success (misestimate, slow), the
    // settings of the attempt that succeeded, overlays and spilling included, so that the re-plan is priced as the
    // plan it must beat was and a re-run keeps what let that attempt finish.
    following.settings = outcome.error ? in.settings : ran_under(run);
    for (auto& [name, value] : next.overlay) {
      try {
        apply_setting(following.settings, name, value);
      } catch (const Error& e) {
        warn(in, fmt::format("re-execution: overlay {}={} left out: {}", name, value, e.message()));
      }
    }
    following.settings.fault_injection.times = faults_left;
    following.charge_loads_of = first_limits.get();
    const bool replan = next.replan || !run.compiled;
    following.count_scans = replan && next.count_scans;
    bool changed = false;
    std::string notes;
    for (auto& n : next.notes) notes += "; " + n;
    if (replan) {
      plan_attempt(in, following);
      if (!following.compiled) {
        if (!outcome.error) {  // the attempt that succeeded stands; the re-plan's failure is only reported
          run.reexec_decision = fmt::format("{}{}; the re-plan failed: {}", after, notes,
                                            following.error ? following.error->message() : "no plan");
          break;
        }
        // the new plan failed: that ends the statement, with its error
        following.reexec_reason = after;
        record_attempt(run, result);
        run = std::move(following);
        break;
      }
      changed = !run.compiled || plan_hash(*following.compiled) != plan_hash(*run.compiled);
    }
    const CompiledQuery& candidate = replan ? *following.compiled : *run.compiled;
    bool accepted = false;
    std::string decided;
    // After a success, a re-plan back to the plan the regression guard demoted is not worth it: that
    // plan ran slower than the one that just ran (misestimate and slow never undo the guard).
    const bool demoted = !outcome.error && guard && guard->applied && plan_hash(candidate) == guard->demoted_plan;
    if (demoted)
      decided = fmt::format("; the regression guard demoted that plan ({:.1f} ms against {:.1f} ms)", guard->demoted_ms,
                            guard->best_ms);
    for (auto* p : demoted ? std::vector<Plugin*>{} : acting) {
      accepted = plugins.call(*p, [&] { return p->accept_plan(outcome, candidate, changed); }) || accepted;
      std::string d;
      plugins.call(*p, [&] { d = p->decision(); return true; });
      if (!d.empty() && decided.find(d) == std::string::npos) decided += "; " + d;
    }
    std::string diff;
    if (replan && changed && run.compiled) {
      diff = describe_plan_change(*run.compiled, run.executed_run ? &run.executed : nullptr, *following.compiled);
      diff = "; plan changed" + (diff.empty() ? std::string(" (not in its joins)") : ": " + diff);
    }
    if (!accepted) {
      if (outcome.error) {
        warn(in, fmt::format("re-execution: {} re-planned after {} in attempt {} with what it observed, but the plan "
                             "did not change; it is not run again",
                             who, error_code_name(*outcome.error), run.number));
      } else {
        // misestimate/slow: the observations are recorded all the same; the new plan was not worth it.
        run.reexec_decision = fmt::format("{}{}; re-planned with what it observed{}{}; not run", after, notes, diff, decided);
        run.reexec_decision_quiet = !changed;  // nothing to learn: the JSON says so, stderr stays quiet
      }
      break;
    }
    std::string reason = after + notes + counted_note(following);
    if (!replan || !changed) reason += "; same plan";
    else reason += diff;
    reason += decided;
    if (!next.execute) {
      // reexec_on_misestimate = learn: what the attempt observed is in the scopes already (the store
      // included), so the next run of the statement plans this better plan from the start.
      run.reexec_decision = reason + "; not run now (reexec_on_misestimate = learn): the next run plans with what "
                                     "this one observed";
      learned = std::move(following.compiled);
      break;
    }
    following.reexec_reason = std::move(reason);
    record_attempt(run, result);
    if (!replan) {
      // Re-run the previous plan as it is, under fresh limits.
      following.compiled = std::move(run.compiled);
      following.oracle = std::move(run.oracle);
      try {
        following.limits = std::make_unique<QueryLimits>(following.settings);
        if (first_limits) following.limits->charge_loads_of(*first_limits);
      } catch (...) {
        following.error = current_exception_as_error();
        following.aborted = true;
      }
    }
    arm_overflow(in, following, plugins);
    // What a failed attempt held (up to the whole memory_limit) was freed into the heaps of the threads that
    // allocated it, where the next attempt's threads do not reuse it: after a large attempt, give it back to the
    // system first, or the process holds both (bench/memory_bound.py's cross_sort at 1 GB: peak RSS 1.28 GB ->
    // 1.08 GB). Not after a small one: the next attempt would fault its memory in again, which cost the rescued
    // runs of the SF 0.1 benchmark 1.06x -> 1.31x the oracle's CPU (q05, q07, q09 at 0.5 and 0.7 x peak).
    constexpr int64_t kTrimAfterPeakBytes = 256LL << 20;
    if (outcome.error && run.executed.peak_memory >= kTrimAfterPeakBytes) trim_free_heap();
    execute_attempt(in, following);
    if (following.executed.fault_fired) --faults_left;
    run = std::move(following);
  }
  adopt_attempt(std::move(run), result);
  if (in.reoptimize) {
    if (learned) {
      result.reoptimized = std::move(learned);
      if (result.compiled)
        result.reoptimize_change = describe_plan_change(*result.compiled, &result.executed, *result.reoptimized);
    } else {
      reoptimize_after(in, first_limits.get(), result);
    }
  }
}

void reoptimize_after(const StatementInput& in, const QueryLimits* charge, StatementResult& result) {
  if (!result.compiled) return;  // nothing ran: nothing was observed
  AttemptRun again;
  again.number = result.attempts.empty() ? 2 : result.attempts.back().number + 1;
  again.settings = in.settings;
  again.settings.fault_injection = {};
  again.charge_loads_of = charge;
  plan_attempt(in, again);  // the scopes hold what the run observed
  if (!again.compiled) {
    warn(in, fmt::format("EXPLAIN REOPTIMIZATION: the re-plan failed: {}",
                         again.error ? again.error->message() : "no plan"));
    return;
  }
  result.reoptimized = std::move(again.compiled);
  result.reoptimize_change =
      describe_plan_change(*result.compiled, result.executed.exec ? &result.executed : nullptr, *result.reoptimized);
}

std::vector<std::string> describe_attempts(const StatementResult& result) {
  std::vector<std::string> lines;
  for (size_t i = 1; i < result.attempts.size(); ++i) {
    const Attempt& before = result.attempts[i - 1];
    const Attempt& a = result.attempts[i];
    std::string first = before.error ? fmt::format("failed ({}: {})", error_code_name(before.error->code()),
                                                   before.error->message())
                                     : std::string("succeeded");
    const std::string spilled =
        a.spilled_bytes > 0 ? fmt::format(" (spilled {})", format_bytes(static_cast<int64_t>(a.spilled_bytes))) : "";
    lines.push_back(fmt::format("re-execution: attempt {} {}; attempt {} {}{}: {}", before.number, first, a.number,
                                a.error ? "failed" : "succeeded", spilled, a.reexec_reason));
  }
  // An attempt that overflowed its memory limit and went on spilling (reexec_spill_in_place): no other attempt ran.
  for (const Attempt& a : result.attempts)
    if (a.spilled_in_place)
      lines.push_back(fmt::format("re-execution: attempt {}: {}; it {} (spilled {})", a.number, a.spill_in_place,
                                  a.error ? "failed all the same" : "succeeded",
                                  format_bytes(static_cast<int64_t>(a.spilled_bytes))));
  // What was decided after an attempt without running another (misestimate/slow: learned, or not worth it).
  for (const Attempt& a : result.attempts)
    if (!a.reexec_decision.empty() && !a.reexec_decision_quiet)
      lines.push_back(fmt::format("re-execution: attempt {}: {}", a.number, a.reexec_decision));
  return lines;
}

}  // namespace hindsight::reexec
