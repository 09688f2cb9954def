#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mapper/entity.hpp"
#include "mapper/link.hpp"
#include "mapper/stats_record.hpp"
#include "mapper/union_find.hpp"

namespace hindsight::mapper {

/// Links opaque compilation artefacts (AST nodes, logical/physical/exec operators, signatures, stats records) into
/// equivalence groups: a union-find over dense entity ids, every accepted link kept with its stage as provenance.
/// A link that would join two different known output schemas is refused and recorded, never aborts (unless strict).
///
/// Group ids are dense and deterministic: the groups of the current partition numbered 0..k-1 in order of their
/// smallest member id, so the same entities and the same accepted links give the same ids whatever the link order.
/// A union renumbers the groups after it. Not thread-safe, not even const calls (they compress paths).
class PlanMapper {
 public:
  /// Registers an entity; schema = its output column type names (empty = unknown, conflicts with nothing).
  EntityId add(EntityKind kind, std::string label, std::vector<std::string> schema = {});

  /// The Signature entity for `hex` (32 hex digits, any case), created on first use: signatures are interned by
  /// value, so the same hex always returns the same entity (keeping its first label). `label` defaults to "sig <hex>".
  EntityId signature(std::string_view hex, std::string label = {});

  /// Puts a and b in one group with provenance `stage`, unless their groups' known schemas differ: then the link is
  /// refused, recorded in refused_links() and returned (strict mode: thrown as MapperConflict).
  LinkResult link(EntityId a, EntityId b, std::string stage);

  /// Strict mode (tests): a refused link throws MapperConflict (it is still recorded first).
  void set_strict(bool strict) { strict_ = strict; }
  bool strict() const { return strict_; }

  /// Registers a Stats entity for `record` and links it to `target` (stage "stats"); returns the Stats entity.
  EntityId attach_stats(EntityId target, StatsRecord record);

  /// Best record visible from any member of `group`: complete beats incomplete (latest complete wins), among lower
  /// bounds the largest; nullopt if the group holds no stats.
  std::optional<StatsRecord> group_stats(GroupId group) const;

  // --- entities -------------------------------------------------------------------------------------------------

  /// Number of registered entities.
  size_t size() const { return entities_.size(); }
  /// All facts about one entity.
  EntityView entity(EntityId id) const;
  EntityKind kind(EntityId id) const { return at(id).kind; }
  const std::string& label(EntityId id) const { return at(id).label; }
  /// Output column types; empty = unknown.
  const std::vector<std::string>& schema(EntityId id) const { return schemas_[at(id).schema]; }
  /// The stats record of a Stats entity made by attach_stats, else nullopt.
  std::optional<StatsRecord> stats_record(EntityId id) const;
  /// The Signature entity already interned for `hex`, if any (does not create one).
  std::optional<EntityId> find_signature(std::string_view hex) const;

  // --- groups ---------------------------------------------------------------------------------------------------

  /// True if a and b are in one group (cheap: two finds).
  bool same_group(EntityId a, EntityId b) const { return uf_.find(check(a)) == uf_.find(check(b)); }
  /// Smallest member id of id's group: a canonical, link-order-independent key that needs no renumbering.
  EntityId smallest_member(EntityId id) const { return min_member_[uf_.find(check(id))]; }
  /// Dense group id of id's group (see class comment; rebuilds a cached index after mutations).
  GroupId group_of(EntityId id) const;
  /// Number of groups (singletons included).
  size_t group_count() const;
  /// All group ids, 0..k-1.
  std::vector<GroupId> groups() const;
  /// Only the groups with at least two members, ascending.
  std::vector<GroupId> multi_member_groups() const;
  /// Members of `group`, ascending by id.
  const std::vector<EntityId>& members(GroupId group) const;
  /// Members of `group` of one kind, ascending by id.
  std::vector<EntityId> members(GroupId group, EntityKind kind) const;
  /// The group's schema: the known schema of its members (all equal; reported from the smallest holder), [] = unknown.
  const std::vector<std::string>& group_schema(GroupId group) const;
  /// Stage history: every accepted link inside `group`, in the order they were made.
  std::vector<Link> links_of(GroupId group) const;
  /// Distinct stages of links_of(group), in order of first appearance.
  std::vector<std::string> stages_of(GroupId group) const;

  /// Every accepted link, in order.
  std::vector<Link> links() const;
  /// Number of accepted links.
  size_t link_count() const { return links_.size(); }
  /// Every refused link, in order.
  const std::vector<RefusedLink>& refused_links() const { return refused_; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;

  struct EntityRecord {
    EntityKind kind;
    uint32_t schema;  // index into schemas_; 0 = unknown
    uint32_t key;     // index into signature_keys_ for signatures, else kNone
    std::string label;
  };
  struct LinkRecord {
    EntityId a;
    EntityId b;
    uint32_t stage;  // index into stages_
  };
  // Snapshot of the partition with dense group ids, rebuilt lazily after a mutation.
  struct GroupIndex {
    bool valid = false;
    std::vector<GroupId> group_of_entity;
    std::vector<std::vector<EntityId>> members;
    std::vector<std::vector<uint32_t>> links;  // indices into links_
  };

  const EntityRecord& at(EntityId id) const { return entities_[check(id)]; }
  EntityId check(EntityId id) const;
  uint32_t intern_schema(std::vector<std::string> schema);
  uint32_t intern_stage(std::string stage);
  const GroupIndex& index() const;
  GroupId check_group(GroupId group) const;

  std::vector<EntityRecord> entities_;
  UnionFind uf_;
  std::vector<EntityId> min_member_;     // per root: smallest member id (merged on union)
  std::vector<EntityId> schema_holder_;  // per root: first member with a known schema, or kNone

  std::vector<std::vector<std::string>> schemas_{{}};  // interned; [0] = unknown
  std::unordered_map<std::string, uint32_t> schema_ids_;
  std::vector<std::string> stages_;
  std::unordered_map<std::string, uint32_t> stage_ids_;
  uint32_t last_stage_ = kNone;
  std::vector<std::string> signature_keys_;
  std::unordered_map<std::string, EntityId> signature_ids_;
  std::unordered_map<EntityId, StatsRecord> stats_;

  std::vector<LinkRecord> links_;
  std::vector<RefusedLink> refused_;
  bool strict_ = false;
  mutable GroupIndex index_;
};

}  // namespace hindsight::mapper
