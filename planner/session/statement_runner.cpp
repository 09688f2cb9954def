#include "planner/session/statement_runner.hpp"

#include <chrono>

#include "planner/common/elapsed.hpp"
#include "planner/common/text.hpp"
#include "planner/session/explain.hpp"
#include "planner/session/plan_mapping.hpp"
#include "planner/session/stats_collection.hpp"
#include "stats_store/layered_stats_source.hpp"
#include "stats_store/signature_aggregate.hpp"

namespace hindsight {

namespace {

void take_warnings(const StatementInput& in) {
  for (auto* scope : in.scopes)
    for (auto& w : scope->take_warnings())
      if (in.warnings) in.warnings->push_back(std::move(w));
}

std::string template_of(const CompiledQuery& cq) { return cq.signer->sign(*cq.logical).templ.hex(); }

/// The regression guard, on attempt 1's plan: demoted against the best known plan of its template?
/// Then plan again with the best plan's answers replayed (and nothing else), and run that plan when
/// it is the best plan again.
void guard_against_regression(const StatementInput& in, AttemptRun& run) {
  if (run.number != 1 || !run.settings.regression_guard || run.settings.cardinality == "oracle" || in.scopes.empty() ||
      !run.compiled || !run.compiled->signer)
    return;
  const std::string templ = template_of(*run.compiled);
  std::vector<std::vector<stats::PlanRecord>> per_scope;
  for (auto* scope : in.scopes) per_scope.push_back(scope->plan_history(templ));
  const auto history = merge_plan_histories(per_scope);
  const std::vector<stats::PlannedAnswer>* best_answers = nullptr;
  auto report = demotion(history, plan_hash(*run.compiled), &best_answers);
  if (!report || !best_answers) return;
  std::shared_ptr<const stats::RecordingStatsSource> replayed;
  StatsProvider replay = [&](const std::vector<stats::TableVersion>&) -> std::shared_ptr<const stats::StatsSource> {
    replayed = std::make_shared<stats::RecordingStatsSource>(std::make_shared<stats::ReplayStatsSource>(*best_answers));
    return replayed;
  };
  auto again = compile_query(in.db, in.query, in.sql, run.settings, true, replay, run.limits.get());
  report->replanned_plan = plan_hash(*again);
  report->applied = report->replanned_plan == report->best_plan;
  if (report->applied) {
    run.compiled = std::move(again);
    run.answers = std::move(replayed);
  }
  if (in.warnings) in.warnings->push_back(report->describe());
  run.guard = std::move(report);
}

/// A successful run's time, for the regression guard (every scope remembers it).
void record_plan_time(const StatementInput& in, const AttemptRun& run) {
  if (in.scopes.empty() || !run.answers || !run.compiled || !run.compiled->signer) return;
  // An oracle plan is planned on counts no other run has: it is not a plan the guard could plan again.
  if (run.settings.cardinality == "oracle") return;
  stats::PlanRun pr;
  pr.template_signature = template_of(*run.compiled);
  pr.plan_hash = plan_hash(*run.compiled);
  pr.elapsed_ms = run.executed.elapsed_ms;
  pr.at_unix_ms = stats::unix_now_ms();
  constexpr size_t kShownQueryChars = 2000;
  pr.query_text = in.sql.substr(0, kShownQueryChars);
  pr.answers = run.answers->answers();
  for (auto* scope : in.scopes) scope->record_plan_run(pr);
}

}  // namespace

Error with_excerpt(const Error& e, const std::string& sql) {
  if (e.pos().valid() && e.pos().file.empty() && e.detail().empty())
    return e.with_position(e.pos(), caret_excerpt(sql, e.pos().line, e.pos().col));
  return e;
}

Attempt AttemptRun::report() const {
  Attempt a;
  a.number = number;
  a.error = error;
  a.reexec_reason = reexec_reason;
  a.reexec_decision = reexec_decision;
  a.reexec_decision_quiet = reexec_decision_quiet;
  a.plan_hash = compiled ? plan_hash(*compiled) : "";
  if (aborted) return a;  // as before the runner existed: a stage that threw reports no timings
  a.elapsed_ms = executed.elapsed_ms;
  a.cpu_ms = executed.cpu_ms + (counting ? counting->cpu_ms : 0);
  a.plan_ms = compiled ? compiled->plan_ms : 0;
  a.stats_ms = stats_ms;
  a.peak_memory = executed_run ? executed.peak_memory : 0;
  if (executed_run)
    for (const auto& [id, st] : executed.stats) a.spilled_bytes += st.spilled_bytes;
  a.spill_in_place = executed.spill_in_place;
  a.spilled_in_place = executed.spilled_in_place;
  a.counted = counted;
  a.counting_ms = counting ? counting->elapsed_ms : 0;
  return a;
}

void plan_attempt(const StatementInput& in, AttemptRun& run) {
  try {
    // The attempt's limits cover the tables it loads while compiling as well as its execution.
    run.limits = std::make_unique<QueryLimits>(run.settings);
    if (run.charge_loads_of) run.limits->charge_loads_of(*run.charge_loads_of);
    // The scopes this attempt reads: the planner asks them (one read each, for the tables the
    // statement reads); counts made for this attempt (the oracle's, or a re-plan's counted scans) answer before
    // every scope.
    std::shared_ptr<const stats::StatsSource> counts;
    StatsProvider provider;
    if (!in.scopes.empty())
      provider = [&](const std::vector<stats::TableVersion>& tables) -> std::shared_ptr<const stats::StatsSource> {
        const auto t0 = std::chrono::steady_clock::now();
        auto layered = std::make_shared<stats::LayeredStatsSource>();
        layered->add(counts);
        for (auto* scope : in.scopes) layered->add(scope->snapshot(tables, run.settings.stats_max_drift));
        // What the planning is told is remembered with the plan's time (the regression guard replays it).
        auto recorder = std::make_shared<stats::RecordingStatsSource>(std::move(layered));
        run.answers = recorder;
        run.stats_ms += ms_since(t0);
        return recorder;
      };
    auto compile = [&] {
      run.compiled = compile_query(in.db, in.query, in.sql, run.settings, true, provider, run.limits.get());
    };
    // Once `counts` holds what was counted over the plan just made: plan again knowing it.
    auto compile_with_counts = [&] {
      if (!provider) provider = [&](const std::vector<stats::TableVersion>&) { return counts; };
      compile();
    };
    compile();
    take_warnings(in);
    if (run.settings.cardinality == "oracle") {
      // Count what the optimizer will price, over the plan just made, then plan again knowing it.
      OracleReport report;
      counts = oracle_cardinalities(in.db, *run.compiled, run.settings, run.limits.get(), report);
      compile_with_counts();
      if (report.capped() && in.warnings) in.warnings->push_back(report.describe());
      run.oracle = report;
    } else if ((run.count_scans || (run.number == 1 && run.settings.count_scans_first)) && run.compiled) {
      // Count the filtered scans no scope knows an exact count of (a statement's first attempt: count_scans_first;
      // a re-plan: those the failed attempt did not count to the end), then plan again knowing them: the counting
      // is this attempt's planning (plan_ms) and work (cpu_ms).
      const double first_ms = run.compiled->plan_ms;
      auto known = [&](const sig::Signature& s) {
        if (!run.answers) return false;
        auto o = run.answers->find(stats::StatsSource::KeyKind::Exact, s);
        return o && !o->lower_bound;
      };
      OracleReport report;
      try {
        counts = count_filtered_scans(in.db, *run.compiled, run.settings, run.limits.get(), known, report, run.counted);
      } catch (const Error& e) {  // the plan made without the counts stands; the attempt meets the error if it lasts
        run.counted.clear();
        if (in.warnings) in.warnings->push_back("counting the filtered scans failed: " + e.message());
      }
      run.counting = report;
      if (!run.counted.empty()) {
        compile_with_counts();
        run.compiled->plan_ms += first_ms;
      }
      run.compiled->plan_ms += report.elapsed_ms;
    }
    // The guard's look-up (and its re-plan, which replaces the plan) is planning a user's query pays: in plan_ms.
    const auto guard_t0 = std::chrono::steady_clock::now();
    const double planned_ms = run.compiled ? run.compiled->plan_ms : 0;
    guard_against_regression(in, run);
    if (run.compiled && run.number == 1 && !in.scopes.empty()) {
      const double guard_ms = ms_since(guard_t0);
      run.compiled->plan_ms = planned_ms + guard_ms;  // the guard's time includes its re-plan, when it made one
      run.stats_ms += guard_ms;
    }
  } catch (...) {
    run.error = with_excerpt(current_exception_as_error(), in.sql);
    run.aborted = true;
  }
}

void execute_attempt(const StatementInput& in, AttemptRun& run) {
  if (!run.compiled || run.error) return;
  try {
    run.executed = execute_query(*run.compiled, run.settings, run.limits.get());
    run.executed_run = true;
    if (!in.scopes.empty() && run.executed.exec) {
      const auto t0 = std::chrono::steady_clock::now();
      auto mapping = map_query(*run.compiled, &run.executed, run.settings, /*detailed_labels=*/false);
      stats::AttemptStats observed = collect_attempt_stats(*run.compiled, run.executed, *mapping, run.number);
      for (auto* scope : in.scopes) scope->record(observed);
      take_warnings(in);
      run.observed = std::move(observed);
      run.stats_ms += ms_since(t0);
    }
    if (run.executed.error) {
      run.executed.error = with_excerpt(*run.executed.error, in.sql);
      run.error = run.executed.error;
    } else if (!in.scopes.empty()) {
      const auto t0 = std::chrono::steady_clock::now();
      record_plan_time(in, run);
      take_warnings(in);
      run.stats_ms += ms_since(t0);
    }
  } catch (...) {
    run.error = with_excerpt(current_exception_as_error(), in.sql);
    run.aborted = true;
  }
}

void record_attempt(AttemptRun& run, StatementResult& result) {
  if (run.reported()) result.attempts.push_back(run.report());
  if (run.guard && !result.regression_guard) result.regression_guard = run.guard;
  if (run.observed) {
    result.observed.push_back(std::move(*run.observed));
    run.observed.reset();
  }
}

void adopt_attempt(AttemptRun&& run, StatementResult& result) {
  record_attempt(run, result);
  result.compiled = std::move(run.compiled);
  if (run.executed_run) result.executed = std::move(run.executed);
  if (run.oracle) result.oracle = std::move(run.oracle);
  result.error = run.error;
}

void SingleAttemptRunner::run(const StatementInput& in, StatementResult& result) {
  AttemptRun run;
  run.settings = in.settings;
  plan_attempt(in, run);
  if (in.execute) execute_attempt(in, run);
  adopt_attempt(std::move(run), result);
}

}  // namespace hindsight
