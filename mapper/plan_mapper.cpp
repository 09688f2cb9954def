#include "mapper/plan_mapper.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace hindsight::mapper {

namespace {

std::string schema_text(const std::vector<std::string>& schema) {
  return schema.empty() ? std::string("unknown") : fmt::format("({})", fmt::join(schema, ", "));
}

std::string normalize_hex(std::string_view hex) {
  if (hex.size() != 32) {
    throw std::invalid_argument(fmt::format("signature key must be 32 hex digits, got '{}'", hex));
  }
  std::string key(hex);
  for (char& c : key) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      throw std::invalid_argument(fmt::format("signature key must be 32 hex digits, got '{}'", hex));
    }
  }
  return key;
}

}  // namespace

EntityId PlanMapper::add(EntityKind kind, std::string label, std::vector<std::string> schema) {
  uint32_t schema_id = intern_schema(std::move(schema));
  EntityId id = uf_.add();
  entities_.push_back(EntityRecord{kind, schema_id, kNone, std::move(label)});
  min_member_.push_back(id);
  schema_holder_.push_back(schema_id == 0 ? kNone : id);
  index_.valid = false;
  return id;
}

EntityId PlanMapper::signature(std::string_view hex, std::string label) {
  std::string key = normalize_hex(hex);
  if (auto it = signature_ids_.find(key); it != signature_ids_.end()) return it->second;
  if (label.empty()) label = "sig " + key;
  EntityId id = add(EntityKind::Signature, std::move(label));
  entities_[id].key = static_cast<uint32_t>(signature_keys_.size());
  signature_keys_.push_back(key);
  signature_ids_.emplace(std::move(key), id);
  return id;
}

LinkResult PlanMapper::link(EntityId a, EntityId b, std::string stage) {
  uint32_t ra = uf_.find(check(a));
  uint32_t rb = uf_.find(check(b));
  if (ra == rb) {
    links_.push_back(LinkRecord{a, b, intern_stage(std::move(stage))});
    index_.valid = false;
    return LinkResult{LinkOutcome::AlreadyGrouped, std::nullopt};
  }
  EntityId holder_a = schema_holder_[ra];
  EntityId holder_b = schema_holder_[rb];
  if (holder_a != kNone && holder_b != kNone && entities_[holder_a].schema != entities_[holder_b].schema) {
    std::string reason = fmt::format("schema mismatch: #{} '{}' is in a group with output {} (from #{}), #{} '{}' in a "
                                     "group with output {} (from #{})",
                                     a, entities_[a].label, schema_text(schemas_[entities_[holder_a].schema]),
                                     holder_a, b, entities_[b].label,
                                     schema_text(schemas_[entities_[holder_b].schema]), holder_b);
    RefusedLink refused{a, b, std::move(stage), std::move(reason)};
    refused_.push_back(refused);
    if (strict_) throw MapperConflict(std::move(refused));
    return LinkResult{LinkOutcome::Refused, std::move(refused)};
  }
  // Union-find does the signature unification by itself: a Signature entity is one id, so linking any operator to
  // it joins that operator's group with the groups of everything already linked to the same signature.
  uint32_t root = uf_.link_roots(ra, rb);
  min_member_[root] = std::min(min_member_[ra], min_member_[rb]);
  // Both known schemas are equal here; keep the smallest holder so the reported origin does not depend on link order.
  schema_holder_[root] = std::min(holder_a, holder_b);  // kNone is UINT32_MAX: a known holder always wins
  links_.push_back(LinkRecord{a, b, intern_stage(std::move(stage))});
  index_.valid = false;
  return LinkResult{LinkOutcome::Merged, std::nullopt};
}

EntityId PlanMapper::attach_stats(EntityId target, StatsRecord record) {
  check(target);
  if (!std::isfinite(record.rows) || record.rows < 0) {
    throw std::invalid_argument(fmt::format("stats rows must be finite and >= 0, got {}", record.rows));
  }
  std::string label = fmt::format("rows {} ({}{}{})", record.rows, record.complete ? "complete" : "lower bound",
                                  record.source.empty() ? "" : ", ", record.source);
  EntityId id = add(EntityKind::Stats, std::move(label));
  stats_.emplace(id, std::move(record));
  link(target, id, "stats");  // a Stats entity has no schema: this link cannot be refused
  return id;
}

std::optional<StatsRecord> PlanMapper::group_stats(GroupId group) const {
  std::optional<StatsRecord> best;
  // Members are ascending by id, i.e. in attach order for Stats entities: a later record is the "candidate".
  for (EntityId member : members(group)) {
    auto it = stats_.find(member);
    if (it == stats_.end()) continue;
    if (!best || supersedes(it->second, *best)) best = it->second;
  }
  return best;
}

EntityView PlanMapper::entity(EntityId id) const {
  const EntityRecord& e = at(id);
  std::string_view key = e.key == kNone ? std::string_view() : std::string_view(signature_keys_[e.key]);
  return EntityView{id, e.kind, e.label, schemas_[e.schema], key};
}

std::optional<StatsRecord> PlanMapper::stats_record(EntityId id) const {
  auto it = stats_.find(check(id));
  if (it == stats_.end()) return std::nullopt;
  return it->second;
}

std::optional<EntityId> PlanMapper::find_signature(std::string_view hex) const {
  auto it = signature_ids_.find(normalize_hex(hex));
  if (it == signature_ids_.end()) return std::nullopt;
  return it->second;
}

GroupId PlanMapper::group_of(EntityId id) const { return index().group_of_entity[check(id)]; }

size_t PlanMapper::group_count() const { return index().members.size(); }

std::vector<GroupId> PlanMapper::groups() const {
  std::vector<GroupId> all(group_count());
  for (GroupId g = 0; g < all.size(); ++g) all[g] = g;
  return all;
}

std::vector<GroupId> PlanMapper::multi_member_groups() const {
  const GroupIndex& idx = index();
  std::vector<GroupId> multi;
  for (GroupId g = 0; g < idx.members.size(); ++g) {
    if (idx.members[g].size() >= 2) multi.push_back(g);
  }
  return multi;
}

const std::vector<EntityId>& PlanMapper::members(GroupId group) const { return index().members[check_group(group)]; }

std::vector<EntityId> PlanMapper::members(GroupId group, EntityKind kind) const {
  std::vector<EntityId> of_kind;
  for (EntityId m : members(group)) {
    if (entities_[m].kind == kind) of_kind.push_back(m);
  }
  return of_kind;
}

const std::vector<std::string>& PlanMapper::group_schema(GroupId group) const {
  EntityId holder = schema_holder_[uf_.find(members(group).front())];
  return holder == kNone ? schemas_[0] : schemas_[entities_[holder].schema];
}

std::vector<Link> PlanMapper::links_of(GroupId group) const {
  std::vector<Link> history;
  for (uint32_t i : index().links[check_group(group)]) {
    history.push_back(Link{links_[i].a, links_[i].b, stages_[links_[i].stage]});
  }
  return history;
}

std::vector<std::string> PlanMapper::stages_of(GroupId group) const {
  std::vector<uint32_t> seen;
  std::vector<std::string> stages;
  for (uint32_t i : index().links[check_group(group)]) {
    uint32_t stage = links_[i].stage;
    if (std::find(seen.begin(), seen.end(), stage) != seen.end()) continue;
    seen.push_back(stage);
    stages.push_back(stages_[stage]);
  }
  return stages;
}

std::vector<Link> PlanMapper::links() const {
  std::vector<Link> all;
  all.reserve(links_.size());
  for (const LinkRecord& l : links_) all.push_back(Link{l.a, l.b, stages_[l.stage]});
  return all;
}

EntityId PlanMapper::check(EntityId id) const {
  if (id >= entities_.size()) {
    throw std::out_of_range(fmt::format("unknown mapper entity #{} ({} registered)", id, entities_.size()));
  }
  return id;
}

GroupId PlanMapper::check_group(GroupId group) const {
  if (group >= index().members.size()) {
    throw std::out_of_range(fmt::format("unknown mapper group {} ({} groups)", group, index().members.size()));
  }
  return group;
}

uint32_t PlanMapper::intern_schema(std::vector<std::string> schema) {
  if (schema.empty()) return 0;
  std::string key = fmt::format("{}", fmt::join(schema, "\x1f"));
  auto [it, inserted] = schema_ids_.try_emplace(std::move(key), static_cast<uint32_t>(schemas_.size()));
  if (inserted) schemas_.push_back(std::move(schema));
  return it->second;
}

uint32_t PlanMapper::intern_stage(std::string stage) {
  // Links come in bursts from one stage (a whole bind, a whole rewrite rule): skip the hash for a repeat.
  if (last_stage_ < stages_.size() && stages_[last_stage_] == stage) return last_stage_;
  auto [it, inserted] = stage_ids_.try_emplace(stage, static_cast<uint32_t>(stages_.size()));
  if (inserted) stages_.push_back(std::move(stage));
  last_stage_ = it->second;
  return it->second;
}

const PlanMapper::GroupIndex& PlanMapper::index() const {
  if (index_.valid) return index_;
  GroupIndex idx;
  size_t n = entities_.size();
  idx.group_of_entity.resize(n);
  std::vector<GroupId> group_of_root(n, kNone);
  // Ascending scan: a group gets its number when its smallest member is reached.
  for (EntityId id = 0; id < n; ++id) {
    uint32_t root = uf_.find(id);
    if (group_of_root[root] == kNone) {
      group_of_root[root] = static_cast<GroupId>(idx.members.size());
      idx.members.emplace_back();
    }
    idx.group_of_entity[id] = group_of_root[root];
    idx.members[group_of_root[root]].push_back(id);
  }
  idx.links.resize(idx.members.size());
  for (uint32_t i = 0; i < links_.size(); ++i) idx.links[idx.group_of_entity[links_[i].a]].push_back(i);
  idx.valid = true;
  index_ = std::move(idx);
  return index_;
}

}  // namespace hindsight::mapper
