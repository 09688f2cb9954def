#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
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
  /// An interned column type name ("BIGINT", "DECIMAL(15,2)", ...): schemas given as these ids cost no text per
  /// entity. Equal names give equal ids.
  using TypeNameId = uint32_t;
  TypeNameId intern_type_name(std::string_view name);
  /// An interned schema: a list of type names in column order, equal lists giving equal ids, so comparing two
  /// entities' schemas is comparing two numbers. kUnknownSchema (the empty list) conflicts with nothing.
  /// Ids are only meaningful to the mapper that gave them, while its dictionary() is unchanged.
  struct SchemaId {
    uint32_t value = 0;
    bool operator==(const SchemaId&) const = default;
  };
  static constexpr SchemaId kUnknownSchema{0};
  /// Throws std::out_of_range for a type name id that was not interned.
  SchemaId intern_schema(std::span<const TypeNameId> types);
  /// `count` columns of one type, in a schema given as runs.
  struct TypeRun {
    TypeNameId type;
    uint32_t count;
    bool operator==(const TypeRun&) const = default;
  };
  /// intern_schema of the list the runs spell out (each run's type `count` times, in order): the same id, for
  /// callers that count their columns per type (a sorted schema of many columns is a handful of runs).
  SchemaId intern_schema_runs(std::span<const TypeRun> runs);

  /// Registers an entity; schema = its output column type names (empty = unknown, conflicts with nothing).
  EntityId add(EntityKind kind, std::string label, std::vector<std::string> schema = {});
  /// The same with the schema as interned type names, in column order (for callers registering many entities).
  EntityId add_with_types(EntityKind kind, std::string label, std::span<const TypeNameId> schema);
  /// Registers an entity labelled "<prefix> #<number>" (e.g. "HashJoin #12"); the text is built only when the label
  /// is first read, so registering costs no formatting or allocation. `prefix` must outlive the mapper (a string
  /// literal or other static text).
  EntityId add_numbered(EntityKind kind, const char* prefix, int64_t number, std::span<const TypeNameId> schema = {});
  /// The same labelled "<prefix> #<number><suffix>" (`suffix` static text too).
  EntityId add_numbered(EntityKind kind, const char* prefix, int64_t number, const char* suffix,
                        std::span<const TypeNameId> schema = {});
  /// add_numbered and add_with_types with an interned schema (callers registering many entities of few schemas).
  EntityId add_numbered(EntityKind kind, const char* prefix, int64_t number, SchemaId schema);
  EntityId add_with_schema(EntityKind kind, std::string label, SchemaId schema);

  /// The Signature entity for `hex` (32 hex digits, any case), created on first use: signatures are interned by
  /// value, so the same hex always returns the same entity (keeping its first label). `label` defaults to "sig <hex>".
  EntityId signature(std::string_view hex, std::string label = {});
  /// The same for a signature given by its 128 bits (`hi` = the first 16 hex digits), labelled `label_prefix` + hex
  /// (built when first read; `label_prefix` must outlive the mapper: static text).
  EntityId signature(uint64_t hi, uint64_t lo, const char* label_prefix = "sig ");

  /// Puts a and b in one group with provenance `stage`, unless their groups' known schemas differ: then the link is
  /// refused, recorded in refused_links() and returned (strict mode: thrown as MapperConflict).
  LinkResult link(EntityId a, EntityId b, std::string_view stage);
  /// An interned stage name, for callers making many links of a few stages (no text compared per link).
  using StageId = uint32_t;
  StageId stage_id(std::string_view stage) { return intern_stage(stage); }
  /// link() with a stage from stage_id().
  LinkResult link(EntityId a, EntityId b, StageId stage);
  /// link() for callers that only need the outcome (a refusal is still recorded in refused_links(), and thrown in
  /// strict mode): no result object per link.
  LinkOutcome connect(EntityId a, EntityId b, StageId stage);

  /// A link from an entity to the Signature entity of a 128-bit key, for connect_signatures().
  struct SignatureLink {
    EntityId entity;
    uint64_t hi, lo;           // the key, as for signature(hi, lo, label_prefix)
    const char* label_prefix;  // static text, as for signature(hi, lo, label_prefix)
    StageId stage;
  };
  /// connect(l.entity, signature(l.hi, l.lo, l.label_prefix), l.stage) for each link, in order (a strict-mode
  /// refusal throws and leaves the rest undone). For callers linking many entities to their signatures: one call
  /// for all, so the per-link cost is the interning and the union.
  void connect_signatures(std::span<const SignatureLink> links);

  /// Pre-allocates room for `entities` entities (at most `signatures` of them signatures; default: any) and `links`
  /// links.
  void reserve(size_t entities, size_t links, size_t signatures = SIZE_MAX);

  /// Forgets every entity, link, name and setting (as a new mapper) but keeps the memory, for a caller that maps
  /// query after query. A small dictionary of type names and schemas (at most kKeptTypeNames names and
  /// kKeptSchemas schemas) is kept too, ids and all: the next query's operators mostly have the same schemas.
  void clear();

  /// Identifies the dictionary of type names and schemas: the ids intern_type_name and intern_schema(_runs) gave
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
  /// The Signature entity already interned for `hex`, if any (does not create one).
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
  /// Index of `text` in `names`, appended if new (a handful of distinct names per mapper: a linear scan).
  static uint32_t intern(std::vector<std::string>& names, std::string_view text);
  EntityId check(EntityId id) const {
    if (id >= entities_.size()) [[unlikely]] throw_unknown_entity(id);
    return id;
  }
  [[noreturn]] void throw_unknown_entity(EntityId id) const;
  const std::vector<std::string>& schema_text(EntityId id) const;
  bool same_schema(EntityId x, EntityId y) const;
  /// Records (and in strict mode throws) the refusal of connect(a, b, stage), whose groups' schemas are those of
  /// holder_a and holder_b; out of line: refusals are rare, their message long.
  [[gnu::noinline, gnu::cold]] LinkOutcome refuse(EntityId a, EntityId b, StageId stage, EntityId holder_a,
                                                   EntityId holder_b);
  uint32_t intern_stage(std::string_view stage);
  EntityId find_signature_id(SignatureKey key) const;
  /// The Signature entity of key: found, or made (labelled `lazy_prefix` + hex, or unlabelled if nullptr) and
  /// interned.
  EntityId intern_signature(SignatureKey key, const char* lazy_prefix);
  /// The slot of key in signature_table_ (grown first if a new key would fill it past half); `found` = its entity,
  /// or kNone if the slot is empty (the key is new).
  size_t probe_signature(SignatureKey key, EntityId& found);
  /// Makes the Signature entity of a new key and interns it in the empty slot probe_signature gave.
  EntityId add_signature(size_t slot, SignatureKey key, const char* lazy_prefix);
  /// connect() after its stage check.
  LinkOutcome connect_checked_stage(EntityId a, EntityId b, StageId stage);
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
  /// intern_schema_runs for runs already maximal.
  SchemaId intern_maximal_runs(std::span<const TypeRun> runs);
  std::vector<TypeRun> schema_pool_;
  std::vector<SchemaSpan> schemas_;
  std::vector<uint32_t> schema_table_;
  std::vector<TypeNameId> type_scratch_;
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

}  // namespace hindsight::mapper
