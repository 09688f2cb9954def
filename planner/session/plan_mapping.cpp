#include "planner/session/plan_mapping.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "planner/common/error.hpp"

namespace hindsight {

namespace {

/// Output types as a sorted list: join algorithms may put the same columns in another order.
std::vector<std::string> schema_of(const std::vector<ColumnId>& outputs, const PlanContext& ctx) {
  std::vector<std::string> types;
  for (ColumnId c : outputs) types.push_back(ctx.column(c).type.to_string());
  std::sort(types.begin(), types.end());
  return types;
}

template <class Op>
std::string label_of(const Op& op, const char* kind_name, const PlanContext& ctx, bool detailed) {
  std::string label = fmt::format("{} #{}", kind_name, op.id);
  if (!detailed) return label;
  auto params = op.params(ctx);
  std::string detail;
  for (auto& p : params) {
    if (p.key == "columns" || p.key == "exprs") continue;
    detail += (detail.empty() ? "" : "; ") + p.key + ": " + p.value;
    if (detail.size() > 80) break;
  }
  if (detail.size() > 100) detail = detail.substr(0, 97) + "...";
  return detail.empty() ? label : label + " [" + detail + "]";
}

}  // namespace

std::optional<mapper::GroupId> QueryMapping::group_of_logical(NodeId id) const {
  auto it = logical.find(id);
  if (it == logical.end()) return std::nullopt;
  return mapper.group_of(it->second);
}

std::optional<mapper::GroupId> QueryMapping::group_of_physical(NodeId id) const {
  auto it = physical.find(id);
  if (it == physical.end()) return std::nullopt;
  return mapper.group_of(it->second);
}

std::unique_ptr<QueryMapping> map_query(const CompiledQuery& cq, const ExecutedQuery* run, const Settings& settings,
                                        bool detailed_labels) {
  auto m = std::make_unique<QueryMapping>();
  mapper::PlanMapper& pm = m->mapper;
  pm.set_strict(settings.mapper_strict);
  PlanSigner& signer = *cq.signer;
  try {
    // Entities for every operator of the final plans.
    std::function<void(const LogicalOperator&)> add_logical = [&](const LogicalOperator& op) {
      m->logical[op.id] = pm.add(mapper::EntityKind::Logical, label_of(op, logical_kind_name(op.kind), cq.ctx, detailed_labels),
                                 schema_of(op.outputs, cq.ctx));
      for (auto& c : op.children) add_logical(*c);
    };
    std::function<void(const PhysicalOperator&)> add_physical = [&](const PhysicalOperator& op) {
      m->physical[op.id] = pm.add(mapper::EntityKind::Physical, label_of(op, physical_op_name(op.kind), cq.ctx, detailed_labels),
                                  schema_of(op.outputs, cq.ctx));
      for (auto& c : op.children) add_physical(*c);
    };
    for (auto& c : cq.ctes) add_logical(*c.logical);
    add_logical(*cq.logical);
    for (auto& c : cq.ctes) add_physical(*c.physical);
    add_physical(*cq.physical);
    // Logical nodes that rewrites replaced still name a computation: keep them, schema unknown.
    auto logical_entity = [&](NodeId id) {
      auto it = m->logical.find(id);
      if (it != m->logical.end()) return it->second;
      return m->logical[id] = pm.add(mapper::EntityKind::Logical, fmt::format("logical #{} (rewritten away)", id));
    };

    // bind: AST node -> logical operator.
    for (auto& l : cq.ast_links) {
      auto it = m->ast.find(l.ast_id);
      if (it == m->ast.end()) it = m->ast.emplace(l.ast_id, pm.add(mapper::EntityKind::Ast, fmt::format("ast #{}", l.ast_id))).first;
      pm.link(it->second, logical_entity(l.node), "bind");
    }
    // rewrite: replaced -> replacement.
    for (auto& r : cq.rewrite_links) pm.link(logical_entity(r.before), logical_entity(r.after), "rewrite:" + r.rule);
    // physical: logical -> physical.
    for (auto& p : cq.physical_links)
      if (m->physical.count(p.physical)) pm.link(logical_entity(p.logical), m->physical.at(p.physical), "physical");
    // signature: every operator -> its exact signature (equal signatures are one entity); inner
    // joins also -> their join-set signature, the same for every join order and algorithm.
    std::function<void(const LogicalOperator&)> sign_logical = [&](const LogicalOperator& op) {
      for (auto& c : op.children) sign_logical(*c);
      const NodeSignatures& s = signer.sign(op);
      pm.link(m->logical.at(op.id), pm.signature(s.exact.hex()), "signature");
      if (s.join_set) pm.link(m->logical.at(op.id), pm.signature(s.join_set->hex(), "join-set " + s.join_set->hex()), "signature:join_set");
    };
    std::function<void(const PhysicalOperator&)> sign_physical = [&](const PhysicalOperator& op) {
      for (auto& c : op.children) sign_physical(*c);
      pm.link(m->physical.at(op.id), pm.signature(signer.sign(op).exact.hex()), "signature");
    };
    for (auto& c : cq.ctes) sign_logical(*c.logical);
    sign_logical(*cq.logical);
    for (auto& c : cq.ctes) sign_physical(*c.physical);
    sign_physical(*cq.physical);

    // exec: physical -> each executable operator it became; with a run, the rows it produced.
    if (run && run->exec) {
      for (auto& n : run->exec->nodes) {
        auto e = pm.add(mapper::EntityKind::Exec, fmt::format("{} #{}", n.role, n.exec_id));
        m->exec[n.exec_id] = e;
        if (m->physical.count(n.physical_id)) pm.link(m->physical.at(n.physical_id), e, "exec");
      }
      // The output operator of each physical node carries its row count.
      std::function<void(const PhysicalOperator&)> attach = [&](const PhysicalOperator& op) {
        for (auto& c : op.children) attach(*c);
        auto ids = run->exec->exec_ids_of.find(op.id);
        if (ids == run->exec->exec_ids_of.end()) return;
        int out_id = op.kind == PhysicalOpKind::Exchange ? ids->second[0] : ids->second.back();
        auto st = run->stats.find(out_id);
        if (st == run->stats.end() || !m->exec.count(out_id)) return;
        uint64_t rows = op.kind == PhysicalOpKind::Exchange ? st->second.rows_in : st->second.rows_out;
        pm.attach_stats(m->exec.at(out_id), {static_cast<double>(rows), st->second.complete, "observed"});
      };
      for (auto& c : cq.ctes) attach(*c.physical);
      attach(*cq.physical);
    }
  } catch (const mapper::MapperConflict& e) {
    throw Error(ErrorCode::INTERNAL, std::string("mapper conflict (mapper_strict): ") + e.what());
  }
  return m;
}

}  // namespace hindsight
