#include "mapper/plan_mapper.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "mapper/append.hpp"

namespace hindsight::mapper {

namespace {

std::string schema_text_of(const std::vector<std::string>& schema) {
  return schema.empty() ? std::string("unknown") : fmt::format("({})", fmt::join(schema, ", "));
}

constexpr char kHexDigits[] = "0123456789abcdef";

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The 128 bits of a 32-hex-digit key (any case); throws std::invalid_argument on anything else.
std::pair<uint64_t, uint64_t> parse_hex_key(std::string_view hex) {
  auto bad = [&] { return std::invalid_argument(fmt::format("signature key must be 32 hex digits, got '{}'", hex)); };
  if (hex.size() != 32) throw bad();
  uint64_t half[2] = {0, 0};
  for (size_t i = 0; i < 32; ++i) {
    int d = hex_digit(hex[i]);
    if (d < 0) throw bad();
    half[i / 16] = (half[i / 16] << 4) | static_cast<uint64_t>(d);
  }
  return {half[0], half[1]};
}

std::array<char, 32> hex_of(uint64_t hi, uint64_t lo) {
  std::array<char, 32> out;
  for (int i = 0; i < 16; ++i) {
    out[i] = kHexDigits[(hi >> (60 - 4 * i)) & 0xF];
    out[16 + i] = kHexDigits[(lo >> (60 - 4 * i)) & 0xF];
  }
  return out;
}

}  // namespace

uint64_t PlanMapper::DictionaryId::next() {
  static std::atomic<uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

void PlanMapper::reserve(size_t entities, size_t links, size_t signatures) {
  entities_.reserve(entities);
  uf_.reserve(entities);
  roots_.reserve(entities);
  links_.reserve(links);
  signatures = std::min(signatures, entities);
  signature_keys_.reserve(signatures);
  interned_signatures_.reserve(signatures);
  if (signature_table_.size() < 2 * signatures) grow_signature_table(std::bit_ceil(std::max<size_t>(64, 2 * signatures)));
}

void PlanMapper::clear() {
  entities_.clear();
  uf_.clear();
  roots_.clear();
  if (type_names_.size() > kKeptTypeNames || schemas_.size() > kKeptSchemas) {
    type_names_.clear();
    schema_pool_.clear();
    schemas_.clear();
    std::fill(schema_table_.begin(), schema_table_.end(), 0u);
    schema_text_.clear();
    dictionary_.value = DictionaryId::next();
  }
  stages_.clear();
  recent_stages_.fill(kNone);
  next_recent_ = 0;
  signature_keys_.clear();
  labels_.reset();  // kept only by mappers that spell labels, which allocate per label anyway
  suffixes_.clear();
  signature_hex_.clear();
  // The table keeps the size of the largest query mapped: empty only the slots in use.
  for (const InternedSignature& s : interned_signatures_) signature_table_[s.slot] = SignatureSlot{};
  interned_signatures_.clear();
  signature_count_ = 0;
  stats_.clear();
  links_.clear();
  refused_.clear();
  strict_ = false;
  index_.valid = false;
  index_.group_of_entity.clear();
  index_.members.clear();
  index_.links.clear();
}

uint32_t PlanMapper::intern(std::vector<std::string>& names, std::string_view text) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == text) return static_cast<uint32_t>(i);
  names.emplace_back(text);
  return static_cast<uint32_t>(names.size() - 1);
}

PlanMapper::TypeNameId PlanMapper::intern_type_name(std::string_view name) { return intern(type_names_, name); }

namespace {
/// Hash of a schema's runs; ORs their types into `id_bits` in the same pass (at least the largest id: a range check
/// costing no second pass).
uint64_t schema_hash(std::span<const PlanMapper::TypeRun> runs, PlanMapper::TypeNameId& id_bits) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ runs.size();
  for (const PlanMapper::TypeRun& r : runs) {
    h = (h ^ (uint64_t{r.type} << 32 | r.count)) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    id_bits |= r.type;
  }
  return h;
}

/// Appends `count` columns of `type` to maximal runs (extending the last run if it is of that type).
void add_to_runs(std::vector<PlanMapper::TypeRun>& runs, PlanMapper::TypeNameId type, uint32_t count) {
  if (count == 0) return;
  if (!runs.empty() && runs.back().type == type) runs.back().count += count;
  else runs.push_back(PlanMapper::TypeRun{type, count});
}
}  // namespace

PlanMapper::SchemaId PlanMapper::intern_schema(std::span<const TypeRun> runs) {
  // Maximal already (what callers counting per type give) unless a run is empty or repeats its neighbour's type.
  bool maximal = true;
  for (size_t i = 0; i < runs.size() && maximal; ++i)
    maximal = runs[i].count > 0 && (i == 0 || runs[i].type != runs[i - 1].type);
  if (maximal) return intern_maximal_runs(runs);
  run_scratch_.clear();
  for (const TypeRun& r : runs) add_to_runs(run_scratch_, r.type, r.count);
  return intern_maximal_runs(run_scratch_);
}

PlanMapper::SchemaId PlanMapper::intern_maximal_runs(std::span<const TypeRun> runs) {
  if (runs.empty()) return kUnknownSchema;
  TypeNameId id_bits = 0;
  const uint64_t h = schema_hash(runs, id_bits);
  if (id_bits >= type_names_.size()) [[unlikely]] {
    for (const TypeRun& r : runs)
      if (r.type >= type_names_.size()) throw std::out_of_range(fmt::format("unknown type name id {}", r.type));
  }
  auto equal = [&](uint32_t id) {
    const SchemaSpan& s = schemas_[id];
    return s.runs == runs.size() && std::equal(runs.begin(), runs.end(), schema_pool_.begin() + s.offset);
  };
  if (2 * schemas_.size() >= schema_table_.size()) {
    // Grow at half load (the table holds schemas_.size() - 1 ids): rehash every schema.
    std::vector<uint32_t> table(std::bit_ceil(std::max<size_t>(32, 4 * schemas_.size())), 0);
    const size_t mask = table.size() - 1;
    for (uint32_t id = 1; id < schemas_.size(); ++id) {
      TypeNameId unused = 0;
      size_t k = schema_hash(std::span(schema_pool_).subspan(schemas_[id].offset, schemas_[id].runs), unused) & mask;
      while (table[k]) k = (k + 1) & mask;
      table[k] = id;
    }
    schema_table_ = std::move(table);
  }
  const size_t mask = schema_table_.size() - 1;
  size_t k = h & mask;
  for (; schema_table_[k]; k = (k + 1) & mask)
    if (equal(schema_table_[k])) return SchemaId{schema_table_[k]};
  if (schema_pool_.size() + runs.size() > std::numeric_limits<uint32_t>::max())
    throw std::length_error("PlanMapper: too many schema columns");
  if (schemas_.empty()) schemas_.push_back(SchemaSpan{0, 0});  // id 0: the unknown schema
  auto id = static_cast<uint32_t>(schemas_.size());
  schemas_.push_back(SchemaSpan{static_cast<uint32_t>(schema_pool_.size()), static_cast<uint32_t>(runs.size())});
  schema_pool_.insert(schema_pool_.end(), runs.begin(), runs.end());
  schema_table_[k] = id;
  return SchemaId{id};
}

EntityId PlanMapper::push_entity(EntityKind kind, SchemaId schema, const char* prefix, int64_t number) {
  if (schema != kUnknownSchema && schema.value >= schemas_.size()) [[unlikely]]
    throw std::out_of_range(fmt::format("unknown schema id {}", schema.value));
  const EntityId id = uf_.add();
  detail::append(entities_, EntityRecord{prefix, number, schema.value, kNone, kind, false});
  detail::append(roots_, RootInfo{id, schema == kUnknownSchema ? kNone : id});
  index_.valid = false;
  return id;
}

std::string& PlanMapper::label_slot(EntityId id, size_t size) const {
  if (!labels_) labels_.emplace();
  if (labels_->size() <= id) labels_->resize(std::max<size_t>(size, id + 1));
  return (*labels_)[id];
}

EntityId PlanMapper::add_text(EntityKind kind, std::string* label, SchemaId schema) {
  const EntityId id = push_entity(kind, schema, nullptr, 0);
  if (label && !label->empty()) label_slot(id, id + 1) = std::move(*label);
  return id;
}

EntityId PlanMapper::add_suffixed(EntityKind kind, const char* prefix, int64_t number, const char* suffix,
                                  SchemaId schema) {
  const EntityId id = push_entity(kind, schema, prefix, number);
  entities_[id].has_suffix = true;
  detail::append(suffixes_, std::pair<EntityId, const char*>(id, suffix));
  return id;
}

std::string_view PlanMapper::signature_hex(uint32_t key) const {
  if (signature_hex_.size() < signature_keys_.size()) signature_hex_.resize(signature_keys_.size(), std::array<char, 33>{});
  std::array<char, 33>& hex = signature_hex_[key];
  if (!hex[32]) {
    std::array<char, 32> text = hex_of(signature_keys_[key].hi, signature_keys_[key].lo);
    std::copy(text.begin(), text.end(), hex.begin());
    hex[32] = 1;
  }
  return std::string_view(hex.data(), 32);
}

const std::string& PlanMapper::label_text(EntityId id) const {
  static const std::string none;
  const EntityRecord& e = entities_[id];
  if (e.prefix) {
    std::string& label = label_slot(id, entities_.size());
    if (e.key != kNone) {
      label.assign(e.prefix).append(signature_hex(e.key));
    } else {
      const char* suffix = "";
      if (e.has_suffix) {
        auto it = std::lower_bound(suffixes_.begin(), suffixes_.end(), std::pair<EntityId, const char*>(id, nullptr),
                                   [](const auto& x, const auto& y) { return x.first < y.first; });
        suffix = it->second;
      }
      label = fmt::format("{} #{}{}", e.prefix, e.number, suffix);
    }
    e.prefix = nullptr;
  }
  return labels_ && id < labels_->size() ? (*labels_)[id] : none;
}

EntityId PlanMapper::find_signature_id(SignatureKey key) const {
  if (signature_table_.empty()) return kNone;
  const size_t mask = signature_table_.size() - 1;
  const auto tag = static_cast<uint32_t>(key.hi);
  for (size_t i = signature_slot(key.hi, key.lo, mask);; i = (i + 1) & mask) {
    const SignatureSlot& s = signature_table_[i];
    if (s.key == kNone) return kNone;
    if (s.tag == tag && signature_keys_[s.key] == key) return interned_signatures_[s.key].entity;
  }
}

EntityId PlanMapper::add_signature(size_t slot, uint64_t hi, uint64_t lo, const char* label_prefix) {
  const EntityId id = push_entity(EntityKind::Signature, kUnknownSchema, label_prefix, 0);
  const auto key_index = static_cast<uint32_t>(signature_keys_.size());
  entities_.back().key = key_index;
  detail::append(signature_keys_, SignatureKey{hi, lo});
  detail::append(interned_signatures_, InternedSignature{id, static_cast<uint32_t>(slot)});
  signature_table_[slot] = SignatureSlot{key_index, static_cast<uint32_t>(hi)};
  ++signature_count_;
  return id;
}

void PlanMapper::grow_signature_table(size_t slots) {
  std::vector<SignatureSlot> table(slots, SignatureSlot{});
  const size_t mask = slots - 1;
  for (const SignatureSlot& s : signature_table_) {
    if (s.key == kNone) continue;
    const SignatureKey& key = signature_keys_[s.key];
    size_t i = signature_slot(key.hi, key.lo, mask);
    while (table[i].key != kNone) i = (i + 1) & mask;
    table[i] = s;
    interned_signatures_[s.key].slot = static_cast<uint32_t>(i);
  }
  signature_table_ = std::move(table);
}

void PlanMapper::throw_unknown_stage(StageId stage) const {
  throw std::out_of_range(fmt::format("unknown stage id {}", stage));
}

LinkOutcome PlanMapper::refuse(EntityId a, EntityId b, StageId stage, EntityId holder_a, EntityId holder_b) {
  std::string reason = fmt::format("schema mismatch: #{} '{}' is in a group with output {} (from #{}), #{} '{}' in a "
                                   "group with output {} (from #{})",
                                   a, label_text(a), schema_text_of(schema_text(holder_a)), holder_a, b, label_text(b),
                                   schema_text_of(schema_text(holder_b)), holder_b);
  refused_.push_back(RefusedLink{a, b, stages_[stage], std::move(reason)});
  if (strict_) throw MapperConflict(refused_.back());
  return LinkOutcome::Refused;
}

EntityId PlanMapper::attach_stats(EntityId target, StatsRecord record) {
  check(target);
  if (!std::isfinite(record.rows) || record.rows < 0) {
    throw std::invalid_argument(fmt::format("stats rows must be finite and >= 0, got {}", record.rows));
  }
  std::string label = fmt::format("rows {} ({}{}{})", record.rows, record.complete ? "complete" : "lower bound",
                                  record.source.empty() ? "" : ", ", record.source);
  const EntityId id = add(EntityKind::Stats, std::move(label));
  stats_.emplace(id, std::move(record));
  link(target, id, stage_id("stats"));  // a Stats entity has no schema: this link cannot be refused
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
  std::string_view key =
      e.key == kNone ? std::string_view() : signature_hex(e.key);
  return EntityView{id, e.kind, label_text(id), schema_text(id), key};
}

std::optional<StatsRecord> PlanMapper::stats_record(EntityId id) const {
  auto it = stats_.find(check(id));
  if (it == stats_.end()) return std::nullopt;
  return it->second;
}

std::optional<EntityId> PlanMapper::find_signature(std::string_view hex) const {
  auto [hi, lo] = parse_hex_key(hex);
  EntityId id = find_signature_id(SignatureKey{hi, lo});
  if (id == kNone) return std::nullopt;
  return id;
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
  EntityId holder = roots_[uf_.find(members(group).front())].schema_holder;
  return schema_text(holder);
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

void PlanMapper::throw_unknown_entity(EntityId id) const {
  throw std::out_of_range(fmt::format("unknown mapper entity #{} ({} registered)", id, entities_.size()));
}

GroupId PlanMapper::check_group(GroupId group) const {
  if (group >= index().members.size()) {
    throw std::out_of_range(fmt::format("unknown mapper group {} ({} groups)", group, index().members.size()));
  }
  return group;
}

const std::vector<std::string>& PlanMapper::schema_text(EntityId id) const {
  static const std::vector<std::string> unknown;
  if (id == kNone || entities_[id].schema == 0) return unknown;
  const uint32_t schema = entities_[id].schema;
  auto [it, inserted] = schema_text_.try_emplace(schema);
  if (inserted) {
    const SchemaSpan& s = schemas_[schema];
    for (uint32_t i = 0; i < s.runs; ++i) {
      const TypeRun& r = schema_pool_[s.offset + i];
      it->second.insert(it->second.end(), r.count, type_names_[r.type]);
    }
  }
  return it->second;
}

PlanMapper::StageId PlanMapper::stage_id(std::string_view stage) {
  // Links come in bursts from a few stages (a whole bind, a rewrite rule, signature + join set): check the recent
  // ones before hashing.
  for (uint32_t id : recent_stages_)
    if (id != kNone && stages_[id] == stage) return id;
  uint32_t id = intern(stages_, stage);
  recent_stages_[next_recent_] = id;
  next_recent_ = (next_recent_ + 1) % recent_stages_.size();
  return id;
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
