#include "stats_store/plan_history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace hindsight::stats {

namespace {
int call_of(StatsSource::KeyKind kind) { return static_cast<int>(kind); }  // FindExact, FindJoinSet, FindTemplate
constexpr int kLookup = static_cast<int>(PlannedAnswer::Call::Lookup);
}  // namespace

void fold_plan_run(std::vector<PlanRecord>& plans, const PlanRun& run) {
  auto it = std::find_if(plans.begin(), plans.end(), [&](const PlanRecord& p) { return p.plan_hash == run.plan_hash; });
  if (it == plans.end()) {
    if (plans.size() >= kPlansPerTemplate) {
      auto oldest = std::min_element(plans.begin(), plans.end(), [](const PlanRecord& a, const PlanRecord& b) {
        return a.last_seen_ms < b.last_seen_ms;
      });
      plans.erase(oldest);
    }
    PlanRecord p;
    p.template_signature = run.template_signature;
    p.plan_hash = run.plan_hash;
    p.best_ms = run.elapsed_ms;
    p.first_seen_ms = run.at_unix_ms;
    plans.push_back(std::move(p));
    it = plans.end() - 1;
  }
  ++it->runs;
  it->best_ms = std::min(it->best_ms, run.elapsed_ms);
  it->last_ms = run.elapsed_ms;
  it->last_seen_ms = run.at_unix_ms;
  it->query_text = run.query_text;
  it->answers = run.answers;
}

std::string encode_answers(const std::vector<PlannedAnswer>& answers) {
  std::string out;
  for (const PlannedAnswer& a : answers)
    out += fmt::format("{} {} {:.17g} {} {} {:.17g} {} {} {} {}\n", static_cast<int>(a.call), a.signature.hex(),
                       a.observed.rows, a.observed.lower_bound ? 1 : 0, a.observed.observations,
                       a.observed.confidence, a.observed.bytes, a.observed.peak_memory, a.observed.build_bytes,
                       static_cast<int>(a.source));
  return out;
}

std::vector<PlannedAnswer> decode_answers(const std::string& text) {
  std::vector<PlannedAnswer> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    int call = -1, lower = 0, source = 0;
    std::string hex;
    PlannedAnswer a;
    if (!(f >> call >> hex >> a.observed.rows >> lower >> a.observed.observations >> a.observed.confidence >>
          a.observed.bytes >> a.observed.peak_memory >> a.observed.build_bytes >> source))
      continue;
    auto s = sig::Signature::from_hex(hex);
    if (!s || call < 0 || call > kLookup || source < 0 || source > static_cast<int>(EstimateSource::Oracle)) continue;
    a.call = static_cast<PlannedAnswer::Call>(call);
    a.signature = *s;
    a.observed.lower_bound = lower != 0;
    a.source = static_cast<EstimateSource>(source);
    out.push_back(a);
  }
  return out;
}

std::optional<ObservedRows> RecordingStatsSource::find(KeyKind kind, const sig::Signature& key) const {
  auto o = inner_ ? inner_->find(kind, key) : std::nullopt;
  if (o) {
    std::lock_guard lock(mu_);
    answers_[{call_of(kind), key}] = PlannedAnswer{static_cast<PlannedAnswer::Call>(call_of(kind)), key, *o, {}};
  }
  return o;
}

std::optional<RowEstimate> RecordingStatsSource::lookup(const SignatureKeys& keys) const {
  auto e = inner_ ? inner_->lookup(keys) : std::nullopt;
  if (e) {
    std::lock_guard lock(mu_);
    answers_[{kLookup, keys.exact}] = PlannedAnswer{PlannedAnswer::Call::Lookup, keys.exact, e->observed, e->source};
  }
  return e;
}

std::vector<PlannedAnswer> RecordingStatsSource::answers() const {
  std::lock_guard lock(mu_);
  std::vector<PlannedAnswer> out;
  out.reserve(answers_.size());
  for (auto& [k, a] : answers_) out.push_back(a);
  return out;
}

ReplayStatsSource::ReplayStatsSource(const std::vector<PlannedAnswer>& answers) {
  for (const PlannedAnswer& a : answers) answers_[{static_cast<int>(a.call), a.signature}] = a;
}

std::optional<ObservedRows> ReplayStatsSource::find(KeyKind kind, const sig::Signature& key) const {
  auto it = answers_.find({call_of(kind), key});
  if (it == answers_.end()) return std::nullopt;
  return it->second.observed;
}

std::optional<RowEstimate> ReplayStatsSource::lookup(const SignatureKeys& keys) const {
  auto it = answers_.find({kLookup, keys.exact});
  if (it == answers_.end()) return std::nullopt;
  return RowEstimate{it->second.observed, it->second.source};
}

}  // namespace hindsight::stats
