#include "planner/session/stats_collection.hpp"

#include <cmath>

#include <fmt/format.h>
#include <xxhash.h>

#include <chrono>
#include <functional>
#include <map>
#include <set>

#include "planner/session/explain.hpp"

namespace hindsight {

namespace {

using Kind = stats::StatsSource::KeyKind;

/// The readable form of a logical node kept beside its statistics: its kind and parameters, and
/// the tables below it (for people reading `stats show`; never parsed).
std::string canonical_text(const LogicalOperator& op, const PlanContext& ctx, const std::set<std::string>& tables) {
  std::string text = logical_kind_name(op.kind);
  std::string params;
  for (const auto& p : op.params(ctx)) params += fmt::format("{}{}: {}", params.empty() ? "" : "; ", p.key, p.value);
  if (!params.empty()) text += " [" + params + "]";
  if (!tables.empty()) {
    text += " over ";
    bool first = true;
    for (const auto& t : tables) {
      text += (first ? "" : ", ") + t;
      first = false;
    }
  }
  constexpr size_t kMaxText = 2000;
  if (text.size() > kMaxText) text = text.substr(0, kMaxText - 3) + "...";
  return text;
}

class Collector {
 public:
  Collector(const CompiledQuery& cq, const ExecutedQuery& run, const QueryMapping& mapping)
      : cq_(cq), run_(run), mapping_(mapping) {}

  std::vector<stats::RuntimeStats> collect() {
    implemented_by_ = implementing_operators(cq_);
    std::function<void(const PhysicalOperator&)> exchanges = [&](const PhysicalOperator& op) {
      if (op.kind == PhysicalOpKind::Exchange) exchange(op);
      for (auto& c : op.children) exchanges(*c);
    };
    for (auto& c : cq_.ctes) exchanges(*c.physical);
    exchanges(*cq_.physical);
    for (auto& c : cq_.ctes) logical(*c.logical);
    logical(*cq_.logical);
    std::vector<stats::RuntimeStats> out;
    out.reserve(records_.size());
    for (auto& [key, r] : records_) out.push_back(std::move(r));
    return out;
  }

 private:
  /// Base tables under `op` (a CTE reference: those of its body).
  const std::set<std::string>& tables_of(const LogicalOperator& op) {
    auto it = tables_.find(&op);
    if (it != tables_.end()) return it->second;
    std::set<std::string> t;
    if (op.kind == LogicalKind::Get) t.insert(op.as<LogicalGet>().table.name);
    if (op.kind == LogicalKind::CteRef) {
      const auto i = static_cast<size_t>(op.as<LogicalCteRef>().cte_index);
      if (i < cq_.ctes.size()) t = tables_of(*cq_.ctes[i].logical);
    }
    for (auto& c : op.children) {
      const auto& ct = tables_of(*c);
      t.insert(ct.begin(), ct.end());
    }
    return tables_.emplace(&op, std::move(t)).first->second;
  }

  /// The figures of the exec operators a physical node became.
  void add_exec_figures(const PhysicalOperator& op, stats::RuntimeStats& r) const {
    auto ids = run_.exec->exec_ids_of.find(op.id);
    if (ids == run_.exec->exec_ids_of.end()) return;
    for (int id : ids->second) {
      auto s = run_.stats.find(id);
      if (s == run_.stats.end()) continue;
      r.peak_memory += s->second.peak_memory;
      r.cpu_ns += s->second.cpu_ns;
      r.wall_ns = std::max(r.wall_ns, s->second.wall_ns);
    }
    auto out = run_.stats.find(ids->second.back());
    if (out != run_.stats.end()) {
      const OperatorStats& st = out->second;
      const bool replicated = op.distribution.kind == StreamDistribution::Replicated && st.instances > 1;
      r.bytes = replicated ? st.bytes_out / st.instances : st.bytes_out;
    }
    if (op.kind == PhysicalOpKind::HashJoin) {
      auto build = run_.stats.find(ids->second.front());
      if (build != run_.stats.end()) {
        r.build_rows = build->second.rows_in;
        r.build_bytes = static_cast<uint64_t>(std::max<int64_t>(0, build->second.peak_memory));
      }
    }
  }

  void logical(const LogicalOperator& op) {
    for (auto& c : op.children) logical(*c);
    auto impl = implemented_by_.find(op.id);
    if (impl == implemented_by_.end()) return;
    auto group = mapping_.group_of_logical(op.id);
    if (!group) return;
    auto seen = mapping_.mapper.group_stats(*group);
    if (!seen || (!seen->complete && seen->rows <= 0)) return;
    stats::RuntimeStats r;
    r.operator_name = logical_kind_name(op.kind);
    const auto& tables = tables_of(op);
    r.canonical_text = canonical_text(op, cq_.ctx, tables);
    r.rows = seen->rows;
    r.lower_bound = !seen->complete;
    r.input_tables.assign(tables.begin(), tables.end());
    add_exec_figures(*impl->second, r);
    if (r.lower_bound) extrapolate(*impl->second, r);
    const NodeSignatures& sigs = cq_.signer->sign(op);
    put(Kind::Exact, sigs.exact, r);
    if (sigs.join_set) put(Kind::JoinSet, *sigs.join_set, r);
    // A template equal to the exact signature (no constants below) would answer only what the exact
    // key already answers: not stored twice.
    if (sigs.templ != sigs.exact) put(Kind::Template, sigs.templ, std::move(r));
  }

  /// A count a failed attempt cut short (MEMORY_LIMIT_EXCEEDED, TIMEOUT, ...) grows with the table scans of its
  /// pipeline and, in the snapshot spilling in place decides with, with the instances not seen: extrapolated
  /// (`extrapolation`), it estimates the whole count, where the raw count would tell the re-plan the build it
  /// failed on is as small as what fit. Still a lower bound for the model (it only ever raises an estimate); bytes
  /// scale alike, so the row width stays. A count a LIMIT stopped early in a run that succeeded stays what was seen.
  void extrapolate(const PhysicalOperator& op, stats::RuntimeStats& r) const {
    const double factor = extrapolation(run_, op);
    if (factor <= 1) return;
    r.rows = std::round(r.rows * factor);
    r.bytes = static_cast<decltype(r.bytes)>(static_cast<double>(r.bytes) * factor);
  }

  /// An exchange: what it moved, under its physical signature.
  void exchange(const PhysicalOperator& op) {
    auto out = observed_output(run_, op);
    if (!out || (!out->complete && out->rows == 0)) return;
    stats::RuntimeStats r;
    r.operator_name = std::string("Exchange ") + exchange_kind_name(op.as<PhysicalExchange>().exchange);
    r.rows = static_cast<double>(out->rows);
    r.lower_bound = !out->complete;
    add_exec_figures(op, r);
    auto ids = run_.exec->exec_ids_of.find(op.id);
    if (ids != run_.exec->exec_ids_of.end()) {
      auto source = run_.stats.find(ids->second.back());
      if (source != run_.stats.end()) {
        r.moved_rows = source->second.rows_out;
        r.moved_bytes = source->second.bytes_out;
      }
    }
    std::set<std::string> tables;
    std::function<void(const PhysicalOperator&)> walk = [&](const PhysicalOperator& p) {
      if (p.kind == PhysicalOpKind::TableScan) tables.insert(p.as<PhysicalTableScan>().table->def.name);
      for (auto& c : p.children) walk(*c);
    };
    walk(op);
    r.input_tables.assign(tables.begin(), tables.end());
    r.canonical_text = r.operator_name + (tables.empty() ? "" : " over ");
    for (auto it = tables.begin(); it != tables.end(); ++it) r.canonical_text += (it == tables.begin() ? "" : ", ") + *it;
    put(Kind::Exact, cq_.signer->sign(op).exact, std::move(r));
  }

  /// Keeps one record per (kind, signature): an exact count over a lower bound, else the larger.
  void put(Kind kind, const sig::Signature& s, stats::RuntimeStats r) {
    r.kind = kind;
    r.signature = s;
    auto [it, inserted] = records_.try_emplace({kind, s}, r);
    if (inserted) return;
    stats::RuntimeStats& cur = it->second;
    const bool better = cur.lower_bound != r.lower_bound ? !r.lower_bound : r.rows > cur.rows;
    if (better) cur = std::move(r);
  }

  const CompiledQuery& cq_;
  const ExecutedQuery& run_;
  const QueryMapping& mapping_;
  std::map<NodeId, const PhysicalOperator*> implemented_by_;
  std::map<const LogicalOperator*, std::set<std::string>> tables_;
  std::map<std::pair<Kind, sig::Signature>, stats::RuntimeStats> records_;
};

}  // namespace

stats::AttemptStats collect_attempt_stats(const CompiledQuery& cq, const ExecutedQuery& run,
                                          const QueryMapping& mapping, int attempt) {
  stats::AttemptStats a;
  a.query_text = cq.sql;
  const XXH128_hash_t h = XXH3_128bits(cq.sql.data(), cq.sql.size());
  a.query_hash = fmt::format("{:016x}{:016x}", h.high64, h.low64);
  a.plan_hash = plan_hash(cq);
  a.attempt = attempt;
  a.succeeded = !run.error;
  a.started_unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  a.tables = cq.tables;
  if (run.exec) a.stats = Collector(cq, run, mapping).collect();
  return a;
}

}  // namespace hindsight
