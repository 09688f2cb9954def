#include "planner/session/explain.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "planner/physical/memory_estimate.hpp"

namespace hindsight {

double q_error(double est, double actual) {
  double e = std::max(est, 1.0), a = std::max(actual, 1.0);
  return std::max(e / a, a / e);
}

namespace {

std::string rows_text(double r) {
  if (r < 0) return "?";
  if (r >= 1e9) return fmt::format("{:.1f}G", r / 1e9);
  if (r >= 1e6) return fmt::format("{:.1f}M", r / 1e6);
  if (r >= 1e4) return fmt::format("{:.1f}k", r / 1e3);
  return fmt::format("{:.0f}", r);
}

std::string distribution_text(const PhysicalOperator& op, const PlanContext& ctx) {
  return op.distribution.describe([&](ColumnId c) { return ctx.column(c).name; });
}

nlohmann::json cost_json(const PhysicalOperator& op) {
  if (op.subtree_cost < 0) return nullptr;
  return {{"cpu", op.own_cost.cpu},
          {"network_bytes", op.own_cost.network_bytes},
          {"memory_bytes", op.own_cost.memory_bytes},
          {"total", op.own_cost.total},
          {"subtree", op.subtree_cost}};
}

std::string node_label(const PhysicalOperator& op) {
  std::string name = physical_op_name(op.kind);
  if (op.kind == PhysicalOpKind::Exchange) {
    std::string k = exchange_kind_name(op.as<PhysicalExchange>().exchange);
    for (size_t i = 1; i < k.size(); ++i) k[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(k[i])));
    name = k;
  }
  return name;
}

void render(const PhysicalOperator& op, const CompiledQuery& cq, const ExecutedQuery* run, const QueryMapping* mapping, int depth,
            std::string& out) {
  std::string line(static_cast<size_t>(depth) * 2, ' ');
  line += node_label(op);
  std::string details;
  for (auto& p : op.params(cq.ctx)) {
    if (op.kind == PhysicalOpKind::Exchange && p.key == "kind") continue;
    details += fmt::format("{}{}: {}", details.empty() ? "" : "; ", p.key, p.value);
  }
  if (!details.empty()) line += " [" + details + "]";
  line += fmt::format("  (est {} rows", rows_text(op.estimated_rows));
  if (op.estimate_source != stats::EstimateSource::Model)
    line += fmt::format(" from {}", stats::estimate_source_name(op.estimate_source));
  if (op.subtree_cost >= 0) line += ", cost " + rows_text(op.subtree_cost);
  if (op.own_cost.network_bytes > 0) line += ", moves " + format_bytes(static_cast<int64_t>(op.own_cost.network_bytes));
  line += ", " + distribution_text(op, cq.ctx);
  if (run) {
    if (auto a = observed_output(*run, op)) {
      const auto& ids = run->exec->exec_ids_of.at(op.id);
      const auto& st = run->stats.at(ids.back());
      line += fmt::format(", actual {}{} rows, q-error {:.1f}, {:.1f} ms", a->complete ? "" : ">=", a->rows,
                          q_error(op.estimated_rows, static_cast<double>(a->rows)), static_cast<double>(st.wall_ns) / 1e6);
      int64_t mem = 0, live = 0;
      uint64_t spilled = 0, spilled_rows = 0;
      for (int id : ids) {
        mem += run->stats.at(id).peak_memory;
        live += run->stats.at(id).peak_memory_live;
        spilled += run->stats.at(id).spilled_bytes;
        spilled_rows += run->stats.at(id).spilled_rows;
      }
      if (mem > 0) line += fmt::format(", mem {} (held {})", format_bytes(mem), format_bytes(live));
      if (spilled > 0)
        line += fmt::format(", spilled {} rows, {}", rows_text(static_cast<double>(spilled_rows)),
                            format_bytes(static_cast<int64_t>(spilled)));
    } else {
      line += ", not run";
    }
  }
  line += ")";
  if (mapping) {
    line += " sig " + cq.signer->sign(op).exact.short_hex();
    if (auto g = mapping->group_of_physical(op.id)) line += fmt::format(" g{}", *g);
  }
  out += line + "\n";
  for (auto& c : op.children) render(*c, cq, run, mapping, depth + 1, out);
}

using Implementing = std::map<NodeId, const PhysicalOperator*>;

nlohmann::json logical_json(const LogicalOperator& op, const CompiledQuery& cq, const Implementing& implementing,
                            const ExecutedQuery* run, const QueryMapping* mapping) {
  nlohmann::json details = nlohmann::json::object();
  for (auto& p : op.params(cq.ctx)) details[p.key] = p.value;
  nlohmann::json node = {{"id", op.id},
                         {"operator", logical_kind_name(op.kind)},
                         {"details", details},
                         {"signature", cq.signer->sign(op).exact.hex()},
                         {"group", nullptr},
                         {"estimated_rows", op.estimated_rows},
                         {"estimate_source", stats::estimate_source_name(op.estimate_source)},
                         {"actual_rows", nullptr},
                         {"children", nlohmann::json::array()}};
  if (const auto& js = cq.signer->sign(op).join_set) node["join_set_signature"] = js->hex();
  node["template_signature"] = cq.signer->sign(op).templ.hex();
  if (mapping)
    if (auto g = mapping->group_of_logical(op.id)) node["group"] = *g;
  if (auto p = implementing.find(op.id); run && p != implementing.end())
    if (auto a = observed_output(*run, *p->second)) {
      node["actual_rows"] = a->rows;
      node["actual_complete"] = a->complete;
      node["q_error"] = q_error(op.estimated_rows, static_cast<double>(a->rows));
    }
  for (auto& c : op.children) node["children"].push_back(logical_json(*c, cq, implementing, run, mapping));
  return node;
}

nlohmann::json physical_json(const PhysicalOperator& op, const CompiledQuery& cq, const ExecutedQuery* run,
                             const QueryMapping* mapping) {
  nlohmann::json details = nlohmann::json::object();
  for (auto& p : op.params(cq.ctx)) details[p.key] = p.value;
  details["delivers"] = distribution_text(op, cq.ctx);
  nlohmann::json node = {{"id", op.id},
                         {"operator", physical_op_name(op.kind)},
                         {"details", details},
                         {"signature", cq.signer->sign(op).exact.hex()},
                         {"group", nullptr},
                         {"estimated_rows", op.estimated_rows},
                         {"estimate_source", stats::estimate_source_name(op.estimate_source)},
                         {"cost", cost_json(op)},
                         {"actual_rows", nullptr},
                         {"children", nlohmann::json::array()}};
  if (run)
    if (auto a = observed_output(*run, op)) {
      node["actual_rows"] = a->rows;
      node["actual_complete"] = a->complete;
      node["q_error"] = q_error(op.estimated_rows, static_cast<double>(a->rows));
      // Memory: the peak its instances charged (summed over workers) and the live data they held then.
      int64_t mem = 0, live = 0;
      uint64_t spilled = 0, spilled_rows = 0;
      for (int id : run->exec->exec_ids_of.at(op.id))
        if (auto s = run->stats.find(id); s != run->stats.end()) {
          mem += s->second.peak_memory;
          live += s->second.peak_memory_live;
          spilled += s->second.spilled_bytes;
          spilled_rows += s->second.spilled_rows;
        }
      node["memory"] = mem;
      node["memory_held"] = live;
      if (spilled > 0) node["spilled"] = {{"rows", spilled_rows}, {"bytes", spilled}};
    }
  if (mapping)
    if (auto g = mapping->group_of_physical(op.id)) node["group"] = *g;
  for (auto& c : op.children) node["children"].push_back(physical_json(*c, cq, run, mapping));
  return node;
}

void shape_text(const PhysicalOperator& op, const PlanContext& ctx, std::string& out) {
  out += physical_op_name(op.kind);
  for (auto& p : op.params(ctx)) out += "|" + p.key + "=" + p.value;
  out += "(";
  for (auto& c : op.children) shape_text(*c, ctx, out);
  out += ")";
}

}  // namespace

std::string explain_text(const CompiledQuery& cq, const ExecutedQuery* run, const QueryMapping* mapping) {
  std::string out;
  for (auto& c : cq.ctes) {
    out += "CTE " + c.name + " (materialized):\n";
    render(*c.physical, cq, run, mapping, 1, out);
  }
  if (!cq.ctes.empty()) out += "Query:\n";
  render(*cq.physical, cq, run, mapping, cq.ctes.empty() ? 0 : 1, out);
  if (run) {
    std::vector<const PhysicalOperator*> ctes;
    for (auto& c : cq.ctes) ctes.push_back(c.physical.get());
    const double estimated = estimate_peak_memory(*cq.physical, cq.ctx, cq.workers, ctes, true, executor_threads()).total;
    out += fmt::format(
        "planning (incl. table loads) {:.1f} ms, execution {:.1f} ms, peak memory {} (held {}, estimated {}), {} rows\n",
        cq.plan_ms, run->elapsed_ms, format_bytes(run->peak_memory), format_bytes(run->peak_memory_live),
        format_bytes(static_cast<int64_t>(estimated)), run->row_count());
    if (run->error) out += "failed: " + run->error->format() + "\n";
  }
  return out;
}

nlohmann::json explain_json(const CompiledQuery& cq, const ExecutedQuery* run, const QueryMapping* mapping) {
  const Implementing implementing = implementing_operators(cq);
  nlohmann::json j = {{"logical", logical_json(*cq.logical, cq, implementing, run, mapping)},
                      {"physical", physical_json(*cq.physical, cq, run, mapping)}};
  if (run) j["memory"] = {{"peak", run->peak_memory}, {"held_at_peak", run->peak_memory_live}};
  if (!cq.ctes.empty()) {
    j["ctes"] = nlohmann::json::array();
    for (auto& c : cq.ctes)
      j["ctes"].push_back({{"name", c.name},
                           {"logical", logical_json(*c.logical, cq, implementing, run, mapping)},
                           {"physical", physical_json(*c.physical, cq, run, mapping)}});
  }
  return j;
}

WorstQError worst_q_error(const CompiledQuery& cq, const ExecutedQuery& run) {
  WorstQError worst;
  std::function<void(const PhysicalOperator&)> walk = [&](const PhysicalOperator& op) {
    if (auto a = observed_output(run, op)) {
      const double q = q_error(op.estimated_rows, static_cast<double>(a->rows));
      const bool counts = a->complete || static_cast<double>(a->rows) > op.estimated_rows;
      if (counts && (worst.node == nullptr || q > worst.q_error)) {
        worst = {q, &op, op.estimated_rows, a->rows, a->complete};
      }
    }
    for (auto& c : op.children) walk(*c);
  };
  for (auto& c : cq.ctes) walk(*c.physical);
  walk(*cq.physical);
  return worst;
}

PlanWork plan_work(const CompiledQuery& cq, const ExecutedQuery& run) {
  PlanWork w;
  std::function<void(const PhysicalOperator&)> visit = [&](const PhysicalOperator& op) {
    if (auto a = observed_output(run, op)) {
      const double rows = static_cast<double>(a->rows);
      w.rows += rows;
      if (!a->complete) ++w.incomplete;
      if (op.kind == PhysicalOpKind::Exchange) {
        const double per_row = op.estimated_rows > 0 ? op.own_cost.network_bytes / op.estimated_rows : 16.0;
        w.exchange_bytes += rows * per_row;
      }
    }
    for (auto& c : op.children) visit(*c);
  };
  visit(*cq.physical);
  for (auto& c : cq.ctes) visit(*c.physical);
  w.work = w.rows + CostModelOptions{}.network_byte_weight * w.exchange_bytes;
  return w;
}

std::string plan_hash(const CompiledQuery& cq) {
  std::string text;
  shape_text(*cq.physical, cq.ctx, text);
  return fmt::format("{:016x}", XXH3_64bits(text.data(), text.size()));
}

}  // namespace hindsight
