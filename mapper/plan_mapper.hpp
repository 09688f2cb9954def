#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mapper/append.hpp"
#include "mapper/entity.hpp"
#include "mapper/label.hpp"
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
  /// An interned column type name ("BIGINT", "DECIMAL(15,2)", ...): schemas are made of these ids, so they cost no
  /// text per entity. Equal names give equal ids.
  using TypeNameId = uint32_t;
  TypeNameId intern_type_name(std::string_view name);
  /// An interned schema: the output column type names of an entity, in column order. Equal lists give equal ids, so
  /// comparing two entities' schemas is comparing two numbers. kUnknownSchema (the empty list) conflicts with
  /// nothing. Ids are only meaningful to the mapper that gave them, while its dictionary() is unchanged.
  struct SchemaId {
    uint32_t value = 0;
    bool operator==(const SchemaId&) const = default;
  };
  static constexpr SchemaId kUnknownSchema{0};
  /// `count` columns of one type.
  struct TypeRun {
    TypeNameId type;
    uint32_t count;
    bool operator==(const TypeRun&) const = default;
  };
  /// The schema of the list the runs spell out (each run's type `count` times, in order): however the list is cut
  /// into runs, the same id (a sorted schema of many columns is a handful of runs). No columns: kUnknownSchema.
  /// Throws std::out_of_range for a type name id that was not interned.
  SchemaId intern_schema(std::span<const TypeRun> runs);

  /// Registers an entity of `kind` with `label` and output schema `schema` (unknown: conflicts with nothing).
  /// Throws std::out_of_range for a schema id this mapper did not give. Inline, so that a numbered label made at the
  /// call costs nothing but its entity record (the planning path registers hundreds of entities per query).
  [[gnu::always_inline]] EntityId add(EntityKind kind, Label label, SchemaId schema = kUnknownSchema) {
    if (!label.is_numbered()) return add_text(kind, label.text_.get(), schema);
    if (label.suffix_) return add_suffixed(kind, label.prefix_, label.number_, label.suffix_, schema);
    return push_entity(kind, schema, label.prefix_, label.number_);
  }

  /// The Signature entity of the 128-bit key (`hi` = its first 16 hex digits), created on first use: signatures are
  /// interned by value, so the same key always gives the same entity, keeping its first label: `label_prefix` + the
  /// key's 32 lowercase hex digits, spelled when first read (`label_prefix` is static text, as for Label::numbered).
  EntityId signature(uint64_t hi, uint64_t lo, const char* label_prefix = "sig ");

  /// An interned stage name ("bind", "rewrite:push_down_filters", ...): equal names give equal ids.
  using StageId = uint32_t;
  StageId stage_id(std::string_view stage);
  /// Puts a and b in one group with provenance `stage` (from stage_id()), unless their groups' known schemas differ:
  /// then the link is refused and recorded in refused_links() (strict mode: also thrown as MapperConflict).
  /// Throws std::out_of_range for an unknown entity or stage id.
  LinkOutcome link(EntityId a, EntityId b, StageId stage);

  /// Pre-allocates room for `entities` entities (at most `signatures` of them signatures; default: any) and `links`
  /// links.
  void reserve(size_t entities, size_t links, size_t signatures = SIZE_MAX);

  /// Forgets every entity, link, name and setting (as a new mapper) but keeps the memory, for a caller that maps
  /// query after query. A small dictionary of type names and schemas (at most kKeptTypeNames names and
  /// kKeptSchemas schemas) is kept too, ids and all: the next query's operators mostly have the same schemas.
  void clear();

  /// Identifies the dictionary of type names and schemas: the ids intern_type_name and intern_schema gave
  /// stay valid, and the same names and lists give the same ids, as long as this value is unchanged. Unique among
  /// all mappers of the process; it changes when clear() drops the dictionary (and for a moved-from mapper).
  uint64_t dictionary() const { return dictionary_.value; }
  static constexpr size_t kKeptTypeNames = 8;  // a query's handful of types (callers may pack per-type counts)
  static constexpr size_t kKeptSchemas = 1024;

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
  const std::string& label(EntityId id) const { return label_text(check(id)); }
  /// Output column types; empty = unknown.
  const std::vector<std::string>& schema(EntityId id) const { return schema_text(check(id)); }
  /// The stats record of a Stats entity made by attach_stats, else nullopt.
  std::optional<StatsRecord> stats_record(EntityId id) const;
  /// The Signature entity already interned for `hex` (32 hex digits, any case), if any: a query, it creates nothing.
  /// Throws std::invalid_argument if `hex` is not 32 hex digits.
  std::optional<EntityId> find_signature(std::string_view hex) const;

  // --- groups ---------------------------------------------------------------------------------------------------

  /// True if a and b are in one group (cheap: two finds).
  bool same_group(EntityId a, EntityId b) const { return uf_.find(check(a)) == uf_.find(check(b)); }
  /// Smallest member id of id's group: a canonical, link-order-independent key that needs no renumbering.
  EntityId smallest_member(EntityId id) const { return roots_[uf_.find(check(id))].min_member; }
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

  // 32 bytes: entities are made by the hundred per query, so their records stay small and the label text is built
  // only when read (labels_).
  struct EntityRecord {
    // Label not built yet (prefix != nullptr): prefix + hex key for signatures, else prefix + " #" + number and the
    // entity's suffix (suffixes_). Built into labels_ (and the prefix cleared) by label_text on first read. nullptr:
    // the label is labels_[id] (empty if labels_ is shorter).
    mutable const char* prefix = nullptr;
    int64_t number = 0;
    uint32_t schema = 0;         // index into schemas_; 0 = unknown
    uint32_t key = kNone;        // index into signature_keys_ for signatures, else kNone
    EntityKind kind{};
    bool has_suffix = false;     // a numbered label with a suffix in suffixes_
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

  struct SignatureKey {
    uint64_t hi, lo;
    bool operator==(const SignatureKey&) const = default;
  };
  // Signature interning: open addressing over a power-of-two table of 8-byte slots (no node per signature); the
  // tag (low half of key.hi) settles almost every probe without reading signature_keys_.
  struct SignatureSlot {
    uint32_t key = kNone;  // index into signature_keys_; kNone = empty
    uint32_t tag = 0;
  };

  const EntityRecord& at(EntityId id) const { return entities_[check(id)]; }
  /// The one place entities are made: every per-entity array grows by one.
  EntityId push_entity(EntityKind kind, SchemaId schema, const char* prefix, int64_t number);
  /// add() of a text label, and of a numbered label with a suffix.
  EntityId add_text(EntityKind kind, std::string* label, SchemaId schema);  // label: moved from; null = none
  EntityId add_suffixed(EntityKind kind, const char* prefix, int64_t number, const char* suffix, SchemaId schema);
  /// Index of `text` in `names`, appended if new (a handful of distinct names per mapper: a linear scan).
  static uint32_t intern(std::vector<std::string>& names, std::string_view text);
  EntityId check(EntityId id) const {
    if (id >= entities_.size()) [[unlikely]] throw_unknown_entity(id);
    return id;
  }
  [[noreturn]] void throw_unknown_entity(EntityId id) const;
  const std::vector<std::string>& schema_text(EntityId id) const;
  bool same_schema(EntityId x, EntityId y) const { return entities_[x].schema == entities_[y].schema; }
  /// Records (and in strict mode throws) the refusal of link(a, b, stage), whose groups' schemas are those of
  /// holder_a and holder_b; out of line: refusals are rare, their message long.
  [[gnu::noinline, gnu::cold]] LinkOutcome refuse(EntityId a, EntityId b, StageId stage, EntityId holder_a,
                                                   EntityId holder_b);
  EntityId find_signature_id(SignatureKey key) const;
  /// Slot of a key in a signature table of mask + 1 slots, where its probe starts.
  static size_t signature_slot(uint64_t hi, uint64_t lo, size_t mask) {
    // splitmix64 finalizer over both halves: keys need not be uniformly random (tests use "aaaa...").
    uint64_t x = hi ^ (lo * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return static_cast<size_t>(x) & mask;
  }
  /// signature() of a new key: makes its entity and interns it in the empty slot the probe ended at.
  EntityId add_signature(size_t slot, uint64_t hi, uint64_t lo, const char* label_prefix);
  [[noreturn]] void throw_unknown_stage(StageId stage) const;
  void grow_signature_table(size_t slots);
  const std::string& label_text(EntityId id) const;
  /// labels_[id], made room for (labels_ grows to at least `size` entries).
  std::string& label_slot(EntityId id, size_t size) const;
  const GroupIndex& index() const;
  GroupId check_group(GroupId group) const;

  std::vector<EntityRecord> entities_;
  UnionFind uf_;
  struct RootInfo {
    EntityId min_member;     // smallest member id (merged on union)
    EntityId schema_holder;  // smallest member with a known schema, or kNone
  };
  std::vector<RootInfo> roots_;  // by entity id; meaningful for roots

  /// A process-wide unique number per dictionary; a moved-from mapper gets a new one (its dictionary moved away).
  struct DictionaryId {
    uint64_t value = next();
    DictionaryId() = default;
    DictionaryId(DictionaryId&& o) noexcept : value(o.value) { o.value = next(); }
    DictionaryId& operator=(DictionaryId&& o) noexcept {
      value = o.value;
      o.value = next();
      return *this;
    }
    static uint64_t next();
  };
  DictionaryId dictionary_;
  std::vector<std::string> type_names_;  // by TypeNameId
  // Interned schemas, run-length encoded: schemas_[id] = {offset, runs} in schema_pool_, maximal runs (no two
  // neighbours of one type, no empty run), so equal lists have equal runs (id 0: the empty, unknown schema, stored
  // with the first known one, so that a new mapper allocates nothing), found by content through an open-addressing
  // table of ids (0 = empty slot).
  struct SchemaSpan {
    uint32_t offset, runs;
  };
  /// intern_schema for runs already maximal.
  SchemaId intern_maximal_runs(std::span<const TypeRun> runs);
  std::vector<TypeRun> schema_pool_;
  std::vector<SchemaSpan> schemas_;
  std::vector<uint32_t> schema_table_;
  std::vector<TypeRun> run_scratch_;
  // Schemas as text, built per entity when first asked for (node-based: references stay valid).
  mutable std::unordered_map<uint32_t, std::vector<std::string>> schema_text_;  // by schema id
  std::vector<std::string> stages_;
  std::array<uint32_t, 4> recent_stages_{kNone, kNone, kNone, kNone};  // links come in bursts of a few stages
  uint32_t next_recent_ = 0;
  std::vector<SignatureKey> signature_keys_;  // by signature key index
  struct InternedSignature {
    EntityId entity;
    uint32_t slot;  // in signature_table_: clear() empties just the slots in use
  };
  std::vector<InternedSignature> interned_signatures_;  // by signature key index
  // By entity id: explicit labels and built lazy ones; may be shorter. A deque: growing it keeps the references
  // label() returned valid. Absent until a label is stored: a mapper whose labels are never spelled (the planning
  // path) allocates nothing for them, and moves for free (a std::deque allocates even when empty).
  mutable std::optional<std::deque<std::string>> labels_;
  std::vector<std::pair<EntityId, const char*>> suffixes_;  // label suffixes, ascending by entity id
  // Lowercase hex of each signature key, spelled when first asked for ([32] != 0 once spelled).
  mutable std::vector<std::array<char, 33>> signature_hex_;
  std::string_view signature_hex(uint32_t key) const;
  std::vector<SignatureSlot> signature_table_;
  size_t signature_count_ = 0;
  std::unordered_map<EntityId, StatsRecord> stats_;

  std::vector<LinkRecord> links_;
  std::vector<RefusedLink> refused_;
  bool strict_ = false;
  mutable GroupIndex index_;
};

// link() and signature() run once or twice per operator on the planning path: inline, with their rare cases (a new
// key, a full table, a refusal, an unknown id) out of line.

[[gnu::always_inline]] inline LinkOutcome PlanMapper::link(EntityId a, EntityId b, StageId stage) {
  if (stage >= stages_.size()) [[unlikely]] throw_unknown_stage(stage);
  const uint32_t ra = uf_.find(check(a));
  const uint32_t rb = uf_.find(check(b));
  index_.valid = false;
  if (ra == rb) {
    detail::append(links_, LinkRecord{a, b, stage});
    return LinkOutcome::AlreadyGrouped;
  }
  const EntityId holder_a = roots_[ra].schema_holder;
  const EntityId holder_b = roots_[rb].schema_holder;
  if (holder_a != kNone && holder_b != kNone && !same_schema(holder_a, holder_b)) [[unlikely]]
    return refuse(a, b, stage, holder_a, holder_b);
  // Union-find does the signature unification by itself: a Signature entity is one id, so linking any operator to
  // it joins that operator's group with the groups of everything already linked to the same signature.
  const uint32_t root = uf_.link_roots(ra, rb);
  const EntityId min_member = std::min(roots_[ra].min_member, roots_[rb].min_member);
  // Both known schemas are equal here; keep the smallest holder so the reported origin does not depend on link order.
  roots_[root] = RootInfo{min_member, std::min(holder_a, holder_b)};  // kNone is UINT32_MAX: a known holder wins
  detail::append(links_, LinkRecord{a, b, stage});
  return LinkOutcome::Merged;
}

[[gnu::always_inline]] inline EntityId PlanMapper::signature(uint64_t hi, uint64_t lo, const char* label_prefix) {
  if (2 * (signature_count_ + 1) > signature_table_.size()) [[unlikely]]  // grow at half load: short probes
    grow_signature_table(std::max<size_t>(64, 2 * signature_table_.size()));
  const size_t mask = signature_table_.size() - 1;
  const auto tag = static_cast<uint32_t>(hi);
  // Open addressing; the tag settles almost every probe without reading signature_keys_.
  size_t slot = signature_slot(hi, lo, mask);
  for (; signature_table_[slot].key != kNone; slot = (slot + 1) & mask) {
    const SignatureSlot& s = signature_table_[slot];
    if (s.tag == tag && signature_keys_[s.key] == SignatureKey{hi, lo}) return interned_signatures_[s.key].entity;
  }
  return add_signature(slot, hi, lo, label_prefix);
}

}  // namespace hindsight::mapper
