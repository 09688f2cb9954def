#include "planner/session/plan_mapping.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <span>
#include <stdexcept>
#include <string_view>

#include "planner/common/error.hpp"

namespace hindsight {

namespace {

/// Output types as a sorted list (join algorithms may put the same columns in another order), as
/// the mapper's interned schemas: an operator's schema is its columns counted per type. With the
/// mapper's type name ids below 8 and fewer than 256 columns of each, those counts packed one byte
/// per type id into a 64-bit word name the schema exactly. So each column's type is looked up once
/// per query (when an operator first outputs it), into the word that adds one to its type's byte:
/// an operator costs one add per output column, then one probe of a packed -> schema cache. The
/// cache lives as long as the mapper's dictionary of names and schemas (which a pooled mapper keeps
/// from query to query), so a schema is interned once, not once per query.
///
/// Kept per thread (MapScratch); start() says which query and mapper come next.
class SchemaLister {
 public:
  /// Prepares for the operators of a query over `ctx`'s columns, mapped into `pm`.
  void start(const PlanContext& ctx, mapper::PlanMapper& pm);

  /// The schema of an operator with these output columns (kUnknownSchema for none).
  mapper::PlanMapper::SchemaId operator()(const std::vector<ColumnId>& outputs) {
    if (outputs.empty()) return mapper::PlanMapper::kUnknownSchema;
    if (!packable_ || outputs.size() >= 256) return intern_listed(outputs);
    // Each column adds one to its type's byte; with fewer than 256 columns no byte carries.
    uint64_t packed = 0;
    for (ColumnId c : outputs) {
      if (c >= column_count_) [[unlikely]] check_columns(outputs);
      uint64_t increment = increment_[c];
      if (increment == 0) [[unlikely]] increment = learn(c);
      packed += increment;
    }
    if (!packable_) [[unlikely]] return intern_listed(outputs);  // a column of type id 8 or more came up
    return cached(packed);
  }

 private:
  struct CacheSlot {
    uint64_t packed = 0;  // 0: empty (an operator with columns has a non-zero count)
    mapper::PlanMapper::SchemaId schema;
  };
  /// A type the mapper's dictionary has named: its key, name id and name (index into names_).
  struct KnownType {
    uint32_t key;
    mapper::PlanMapper::TypeNameId id;
    uint32_t name;
  };

  /// Equal keys for equal types (precision and scale only count for DECIMAL), hence for equal names.
  static uint32_t type_key(const DataType& t) {
    const uint32_t id = static_cast<uint32_t>(t.id);
    return t.id == TypeId::Decimal ? id | uint32_t{t.precision} << 8 | uint32_t{t.scale} << 16 : id;
  }
  /// Looks up column c's type (out of line: once per column a query's operators output); returns
  /// its increment (kUnpackable for a type id of 8 or more).
  [[gnu::noinline]] uint64_t learn(ColumnId c);
  /// The mapper's name id of the type with this key, interned (and put in name order) if new.
  mapper::PlanMapper::TypeNameId type_name_id(uint32_t key, const DataType& t);
  /// Throws std::out_of_range for an id in `outputs` that is not one of the query's columns.
  [[gnu::cold]] void check_columns(const std::vector<ColumnId>& outputs) const;
  static size_t cache_slot(uint64_t packed, size_t mask) {
    packed ^= packed >> 31;
    packed *= 0x9E3779B97F4A7C15ULL;
    return (packed ^ (packed >> 29)) & mask;
  }
  /// The schema whose per-type-id counts are the bytes of `packed`.
  mapper::PlanMapper::SchemaId cached(uint64_t packed) {
    const size_t mask = cache_.size() - 1;
    for (size_t i = cache_slot(packed, mask); cache_[i].packed != 0; i = (i + 1) & mask)
      if (cache_[i].packed == packed) return cache_[i].schema;
    return cache_miss(packed);
  }
  /// cached() for a schema not in the cache yet: interns it (out of line: once per distinct schema).
  [[gnu::noinline]] mapper::PlanMapper::SchemaId cache_miss(uint64_t packed);
  /// The schema of `outputs` counted column by column (a type id of 8 or more, or 256 columns or more).
  mapper::PlanMapper::SchemaId intern_listed(const std::vector<ColumnId>& outputs);
  /// The schema of count(id) columns of each type name id, as runs in name order, interned by the mapper.
  template <class Count>
  mapper::PlanMapper::SchemaId intern(Count count);
  void grow_cache();

  static constexpr uint64_t kUnpackable = 1;

  // Every type seen on this thread: {type_key, name}, only appended to. A handful: kept so that
  // types are named without formatting or allocating.
  std::vector<std::pair<uint32_t, std::string>> names_;

  // The mapper's dictionary: what is known of it, valid while pm_->dictionary() == dictionary_.
  uint64_t dictionary_ = 0;
  std::vector<KnownType> known_;            // the types this lister has named in it
  std::vector<uint32_t> by_name_;           // indices into known_, in name order
  uint32_t id_bound_ = 0;                   // 1 + the largest id in known_
  std::vector<CacheSlot> cache_;            // packed counts -> schema, open addressing, at most half full
  std::vector<uint32_t> cache_used_;        // its filled slots

  // The current query.
  const PlanContext* ctx_ = nullptr;
  mapper::PlanMapper* pm_ = nullptr;
  size_t column_count_ = 0;
  // Per column id: 0 until learn() looked the column's type up, then 1 << 8 * type name id (ids
  // 0-7; kUnpackable for the others, whose counts are not packed).
  std::vector<uint64_t> increment_;
  std::vector<mapper::PlanMapper::TypeNameId> type_of_column_;  // where learned
  bool packable_ = true;                    // no column of type id 8 or more so far
  std::vector<uint32_t> count_;             // per type name id: columns of the operator intern_listed() counts
  std::vector<mapper::PlanMapper::TypeRun> runs_;
};

void SchemaLister::start(const PlanContext& ctx, mapper::PlanMapper& pm) {
  ctx_ = &ctx;
  pm_ = &pm;
  packable_ = true;
  column_count_ = ctx.column_count();
  increment_.assign(column_count_, 0);
  if (type_of_column_.size() < column_count_) type_of_column_.resize(column_count_);
  if (pm.dictionary() != dictionary_) {
    // Another mapper, or one whose dictionary was dropped: its ids mean nothing to this cache.
    dictionary_ = pm.dictionary();
    known_.clear();
    by_name_.clear();
    id_bound_ = 0;
    for (uint32_t slot : cache_used_) cache_[slot] = CacheSlot{};
    cache_used_.clear();
  }
  if (cache_.empty()) grow_cache();
}

uint64_t SchemaLister::learn(ColumnId c) {
  const DataType& t = ctx_->column_type(c);
  const mapper::PlanMapper::TypeNameId id = type_name_id(type_key(t), t);
  type_of_column_[c] = id;
  if (id >= 8) packable_ = false;
  return increment_[c] = id < 8 ? uint64_t{1} << (8 * id) : kUnpackable;
}

mapper::PlanMapper::TypeNameId SchemaLister::type_name_id(uint32_t key, const DataType& t) {
  for (const KnownType& k : known_)
    if (k.key == key) return k.id;
  auto named = std::find_if(names_.begin(), names_.end(), [&](const auto& n) { return n.first == key; });
  if (named == names_.end()) {
    names_.emplace_back(key, t.to_string());
    named = names_.end() - 1;
  }
  const mapper::PlanMapper::TypeNameId id = pm_->intern_type_name(named->second);
  known_.push_back(KnownType{key, id, static_cast<uint32_t>(named - names_.begin())});
  id_bound_ = std::max(id_bound_, id + 1);
  auto name_less = [&](uint32_t a, uint32_t b) { return names_[known_[a].name].second < names_[known_[b].name].second; };
  const auto k = static_cast<uint32_t>(known_.size() - 1);
  by_name_.insert(std::upper_bound(by_name_.begin(), by_name_.end(), k, name_less), k);
  return id;
}

void SchemaLister::check_columns(const std::vector<ColumnId>& outputs) const {
  for (ColumnId c : outputs) {
    if (c >= column_count_) {
      throw std::out_of_range("plan mapping: output column " + std::to_string(c) + " is not one of the query's " +
                              std::to_string(column_count_) + " columns");
    }
  }
}

mapper::PlanMapper::SchemaId SchemaLister::cache_miss(uint64_t packed) {
  const mapper::PlanMapper::SchemaId id = intern([&](uint32_t k) { return k < 8 ? (packed >> (8 * k)) & 0xFF : 0; });
  if (2 * (cache_used_.size() + 1) > cache_.size()) grow_cache();
  const size_t mask = cache_.size() - 1;
  size_t i = cache_slot(packed, mask);
  while (cache_[i].packed != 0) i = (i + 1) & mask;
  cache_[i] = CacheSlot{packed, id};
  cache_used_.push_back(static_cast<uint32_t>(i));
  return id;
}

void SchemaLister::grow_cache() {
  std::vector<CacheSlot> old = std::move(cache_);
  cache_.assign(std::max<size_t>(64, 2 * old.size()), CacheSlot{});
  cache_used_.clear();
  const size_t mask = cache_.size() - 1;
  for (const CacheSlot& s : old) {
    if (s.packed == 0) continue;
    size_t i = cache_slot(s.packed, mask);
    while (cache_[i].packed != 0) i = (i + 1) & mask;
    cache_[i] = s;
    cache_used_.push_back(static_cast<uint32_t>(i));
  }
}

mapper::PlanMapper::SchemaId SchemaLister::intern_listed(const std::vector<ColumnId>& outputs) {
  check_columns(outputs);
  for (ColumnId c : outputs)
    if (increment_[c] == 0) learn(c);
  count_.assign(id_bound_, 0u);
  for (ColumnId c : outputs) ++count_[type_of_column_[c]];
  return intern([&](uint32_t k) { return count_[k]; });
}

template <class Count>
mapper::PlanMapper::SchemaId SchemaLister::intern(Count count) {
  // The sorted list of type names as one run per type: a handful of runs however many columns.
  runs_.clear();
  for (uint32_t k : by_name_) {
    const mapper::PlanMapper::TypeNameId id = known_[k].id;
    const auto n = static_cast<uint32_t>(count(id));
    if (n != 0) runs_.push_back({id, n});
  }
  return pm_->intern_schema(runs_);
}

/// "<kind> #<id>", then `suffix`.
std::string short_label(std::string_view kind, int64_t id, std::string_view suffix = {}) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, id).ptr;
  std::string label;
  label.reserve(kind.size() + 2 + static_cast<size_t>(end - digits) + suffix.size());
  label.append(kind).append(" #").append(digits, end).append(suffix);
  return label;
}

/// "<kind> #<id> [<params>]": out of line, so that mapping without details keeps its code short.
template <class Op>
[[gnu::noinline, gnu::cold]] std::string detailed_label(const Op& op, const char* kind_name, const PlanContext& ctx) {
  std::string label = short_label(kind_name, op.id);
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

template <class Op, class F>
void pre_order(const Op& op, F& f) {
  f(op);
  for (auto& c : op.children) pre_order(*c, f);
}

template <class Op, class F>
void post_order(const Op& op, F& f) {
  for (auto& c : op.children) post_order(*c, f);
  f(op);
}

}  // namespace

void NodeEntityMap::grow(NodeId id) {
  // Ids come in any order: fill the reserved room at once.
  slots_.resize(std::max(size_t{id} + 1, slots_.capacity()), value_type{0, kAbsent});
}

namespace {

constexpr size_t kPooledMappings = 4;

/// A link from an entity to the Signature entity of a 128-bit key, made after the earlier stages' links.
struct SignatureLink {
  mapper::EntityId entity;
  uint64_t hi, lo;           // the key, as for PlanMapper::signature(hi, lo, label_prefix)
  const char* label_prefix;  // static text
  mapper::PlanMapper::StageId stage;
};

/// map_query's working arrays, reused from query to query (each call resets what it uses).
struct MapScratch {
  SchemaLister schema_of;
  std::vector<SignatureLink> signature_links;
  std::vector<mapper::EntityId> ast;  // by AST id + 1
  std::vector<std::pair<std::string_view, mapper::PlanMapper::StageId>> rule_stages;
  std::string stage;
};

/// What map_query keeps per thread, so that mapping a query allocates nothing once the thread has
/// mapped one as large: finished mappings (with their arrays' memory) and the working arrays.
struct ThreadMemory {
  std::vector<std::unique_ptr<QueryMapping>> mappings;  // at most kPooledMappings
  MapScratch scratch;
  bool scratch_taken = false;
};

/// nullptr once this thread's memory is destroyed (see PlanSigner::tables_pool).
ThreadMemory* thread_memory() {
  static thread_local bool gone = false;
  if (gone) return nullptr;
  struct Holder {
    ThreadMemory memory;
    ~Holder() { gone = true; }
  };
  thread_local Holder holder;
  return &holder.memory;
}

/// The thread's MapScratch for one map_query call; a fresh one if it is gone (thread exit) or taken
/// (a mapping made while another is being made).
class ScratchLease {
 public:
  explicit ScratchLease(ThreadMemory* memory) {
    if (memory && !memory->scratch_taken) {
      taken_ = &memory->scratch_taken;
      *taken_ = true;
      scratch_ = &memory->scratch;
    } else {
      own_ = std::make_unique<MapScratch>();
      scratch_ = own_.get();
    }
  }
  ~ScratchLease() {
    if (taken_) *taken_ = false;
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  MapScratch& operator*() const { return *scratch_; }

 private:
  MapScratch* scratch_;
  bool* taken_ = nullptr;
  std::unique_ptr<MapScratch> own_;
};

}  // namespace

void QueryMapping::Recycle::operator()(QueryMapping* m) const {
  std::unique_ptr<QueryMapping> owned(m);
  ThreadMemory* memory = thread_memory();
  if (memory && memory->mappings.size() < kPooledMappings) memory->mappings.push_back(std::move(owned));
}

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

namespace {

/// The exec stage of map_query: physical -> each executable operator it became, and the rows it
/// produced (out of line: most mappings have no run).
[[gnu::noinline]] void map_run(const CompiledQuery& cq, const ExecutedQuery& run, QueryMapping& qm) {
  mapper::PlanMapper& pm = qm.mapper;
  const mapper::PlanMapper::StageId exec = pm.stage_id("exec");
  for (auto& n : run.exec->nodes) {
    auto e = pm.add(mapper::EntityKind::Exec, short_label(n.role, n.exec_id));
    qm.exec[n.exec_id] = e;
    if (auto it = qm.physical.find(n.physical_id); it != qm.physical.end()) pm.link(it->second, e, exec);
  }
  // The output operator of each physical node carries its observed rows.
  auto attach = [&](const PhysicalOperator& op) {
    auto out = observed_output(run, op);
    if (!out) return;
    const auto& ids = run.exec->exec_ids_of.at(op.id);
    auto e = qm.exec.find(op.kind == PhysicalOpKind::Exchange ? ids.front() : ids.back());
    if (e == qm.exec.end()) return;
    pm.attach_stats(e->second, {static_cast<double>(out->rows), out->complete, "observed"});
  };
  for (auto& c : cq.ctes) post_order(*c.physical, attach);
  post_order(*cq.physical, attach);
}

}  // namespace

QueryMappingPtr map_query(const CompiledQuery& cq, const ExecutedQuery* run, const Settings& settings,
                          bool detailed_labels) {
  ThreadMemory* memory = thread_memory();
  QueryMappingPtr m;
  if (memory && !memory->mappings.empty()) {
    m.reset(memory->mappings.back().release());
    memory->mappings.pop_back();
    m->mapper.clear();
    m->logical.clear();
    m->physical.clear();
    m->exec.clear();
  } else {
    m.reset(new QueryMapping);
  }
  ScratchLease lease(memory);
  MapScratch& scratch = *lease;
  mapper::PlanMapper& pm = m->mapper;
  pm.set_strict(settings.mapper_strict);
  PlanSigner& signer = *cq.signer;
  try {
    // Room for every entity and link up front, without a pass over the plans: every operator has
    // an id below the context's bound, and has at most one exact and one join-set signature.
    const size_t operators = cq.ctx.node_id_bound();
    const size_t rewrites = cq.rewrite_links.size(), asts = cq.ast_links.size();
    pm.reserve(3 * operators + asts + 2 * rewrites, 2 * operators + asts + rewrites + cq.physical_links.size(),
               2 * operators);
    m->logical.reserve(operators);
    m->physical.reserve(operators);

    const mapper::PlanMapper::StageId bind = pm.stage_id("bind"), physical = pm.stage_id("physical"),
                                      signature = pm.stage_id("signature"), join_set = pm.stage_id("signature:join_set");

    // Entities for every operator of the final plans, and (while each node is at hand) the links
    // to its signatures, made below after the links of the earlier stages: every operator -> its
    // exact signature (equal signatures are one entity); inner joins also -> their join-set
    // signature, the same for every join order and algorithm.
    SchemaLister& schema_of = scratch.schema_of;
    schema_of.start(cq.ctx, pm);
    std::vector<SignatureLink>& signature_links = scratch.signature_links;
    signature_links.clear();
    // Without details a label is "<kind> #<id>": left to the mapper to spell when someone reads it.
    auto add = [&](const auto& op, mapper::EntityKind kind, const char* kind_name, NodeEntityMap& entities) {
      const mapper::EntityId e = detailed_labels
                                     ? pm.add(kind, detailed_label(op, kind_name, cq.ctx), schema_of(op.outputs))
                                     : pm.add(kind, mapper::Label::numbered(kind_name, op.id), schema_of(op.outputs));
      entities.insert_or_assign(op.id, e);
      const ExactSignatures sigs = signer.sign_exact(op);
      signature_links.push_back({e, sigs.exact.hi, sigs.exact.lo, "sig ", signature});
      if (kind == mapper::EntityKind::Logical && sigs.join_set)
        signature_links.push_back({e, sigs.join_set->hi, sigs.join_set->lo, "join-set ", join_set});
    };
    auto add_logical = [&](const LogicalOperator& op) {
      add(op, mapper::EntityKind::Logical, logical_kind_name(op.kind), m->logical);
    };
    auto add_physical = [&](const PhysicalOperator& op) {
      add(op, mapper::EntityKind::Physical, physical_op_name(op.kind), m->physical);
    };
    for (auto& c : cq.ctes) pre_order(*c.logical, add_logical);
    pre_order(*cq.logical, add_logical);
    for (auto& c : cq.ctes) pre_order(*c.physical, add_physical);
    pre_order(*cq.physical, add_physical);
    // Logical nodes that rewrites replaced still name a computation: keep them, schema unknown.
    auto logical_entity = [&](NodeId id) {
      auto it = m->logical.find(id);
      if (it != m->logical.end()) return it->second;
      mapper::EntityId e =
          pm.add(mapper::EntityKind::Logical, mapper::Label::numbered("logical", id, " (rewritten away)"));
      m->logical.insert_or_assign(id, e);
      return e;
    };

    // bind: AST node -> logical operator.
    // AST ids are dense within a statement (-1: none was assigned); one entity per id.
    int max_ast = -1;
    for (auto& l : cq.ast_links) max_ast = std::max(max_ast, l.ast_id);
    std::vector<mapper::EntityId>& ast = scratch.ast;
    ast.assign(static_cast<size_t>(max_ast + 2), UINT32_MAX);  // [0]: id -1
    for (auto& l : cq.ast_links) {
      mapper::EntityId& e = ast[static_cast<size_t>(std::max(l.ast_id, -1) + 1)];
      if (e == UINT32_MAX) e = pm.add(mapper::EntityKind::Ast, mapper::Label::numbered("ast", l.ast_id));
      pm.link(e, logical_entity(l.node), bind);
    }
    // rewrite: replaced -> replacement.
    // A few rules make many links: one interned stage per rule name.
    auto& rule_stages = scratch.rule_stages;  // views of this query's rule names
    rule_stages.clear();
    std::string& stage = scratch.stage;
    for (auto& r : cq.rewrite_links) {
      auto it = std::find_if(rule_stages.begin(), rule_stages.end(), [&](const auto& rs) { return rs.first == r.rule; });
      if (it == rule_stages.end()) {
        stage.assign("rewrite:").append(r.rule);
        it = rule_stages.insert(rule_stages.end(), {r.rule, pm.stage_id(stage)});
      }
      pm.link(logical_entity(r.before), logical_entity(r.after), it->second);
    }
    // physical: logical -> physical.
    for (auto& p : cq.physical_links)
      if (auto it = m->physical.find(p.physical); it != m->physical.end()) pm.link(logical_entity(p.logical), it->second, physical);
    // signature: the links listed with the entities above.
    for (const SignatureLink& l : signature_links) pm.link(l.entity, pm.signature(l.hi, l.lo, l.label_prefix), l.stage);

    // exec: physical -> each executable operator it became; with a run, the rows it produced.
    if (run && run->exec) map_run(cq, *run, *m);
  } catch (const mapper::MapperConflict& e) {
    throw Error(ErrorCode::INTERNAL, std::string("mapper conflict (mapper_strict): ") + e.what());
  }
  return m;
}

}  // namespace hindsight
