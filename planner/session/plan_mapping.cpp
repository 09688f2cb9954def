#include "planner/session/plan_mapping.hpp"

#include <algorithm>
#include <charconv>
#include <span>
#include <string_view>

#include "planner/common/error.hpp"

namespace hindsight {

namespace {

/// Output types as a sorted list (join algorithms may put the same columns in another order), as
/// the mapper's interned schemas. Every column's type is looked up once, in one sequential pass
/// over the query's columns; an operator's schema is its columns counted per type. With at most 8
/// distinct types and fewer than 256 columns of each, those counts packed into one 64-bit word
/// name the schema exactly, and operators of an already seen schema cost one table probe.
class SchemaLister {
 public:
  SchemaLister(const PlanContext& ctx, mapper::PlanMapper& pm) : ctx_(ctx), pm_(pm) {
    type_of_column_.resize(ctx.column_count());
    for (size_t c = 0; c < type_of_column_.size(); ++c) type_of_column_[c] = known(ctx.column_type(static_cast<ColumnId>(c)));
  }

  mapper::PlanMapper::SchemaId operator()(const std::vector<ColumnId>& outputs) {
    if (outputs.empty()) return mapper::PlanMapper::kUnknownSchema;
    if (outputs.size() < 256) {
      // Each column adds one to its type's byte; with fewer than 256 columns no byte carries.
      uint64_t packed = 0;
      bool fits = true;
      for (ColumnId c : outputs) {
        const uint32_t k = type_index(c);
        fits &= k < 8;
        packed += uint64_t{1} << (8 * (k & 7));
      }
      if (fits) return cached(packed);
    }
    for (ColumnId c : outputs) ++count_[type_index(c)];
    return intern_counted();
  }

 private:
  struct Known {
    std::string name;
    mapper::PlanMapper::TypeNameId id;
  };
  struct CacheSlot {
    uint64_t packed = 0;
    mapper::PlanMapper::SchemaId schema;
  };

  static uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29);
  }

  uint32_t type_index(ColumnId c) { return c < type_of_column_.size() ? type_of_column_[c] : known_type(c); }

  /// The schema whose per-type column counts are the bytes of `packed` (types 0-7), from the cache
  /// (open addressing; packed is never 0 here).
  mapper::PlanMapper::SchemaId cached(uint64_t packed) {
    if (2 * (cached_ + 1) > cache_.size()) grow_cache();
    const size_t mask = cache_.size() - 1;
    size_t i = mix(packed) & mask;
    for (; cache_[i].packed != 0; i = (i + 1) & mask)
      if (cache_[i].packed == packed) return cache_[i].schema;
    for (uint32_t k = 0; k < 8 && k < count_.size(); ++k) count_[k] = static_cast<uint32_t>((packed >> (8 * k)) & 0xFF);
    mapper::PlanMapper::SchemaId id = intern_counted();
    cache_[i] = CacheSlot{packed, id};
    ++cached_;
    return id;
  }

  /// The schema of the counted columns, interned by the mapper; resets the counts.
  mapper::PlanMapper::SchemaId intern_counted() {
    ids_.clear();
    for (uint32_t k : by_name_) {
      for (uint32_t n = count_[k]; n > 0; --n) ids_.push_back(known_[k].id);
      count_[k] = 0;
    }
    return pm_.intern_schema(ids_);
  }

  void grow_cache() {
    std::vector<CacheSlot> old = std::move(cache_);
    cache_.assign(std::max<size_t>(64, 2 * old.size()), CacheSlot{});
    const size_t mask = cache_.size() - 1;
    for (const CacheSlot& s : old) {
      if (s.packed == 0) continue;
      size_t i = mix(s.packed) & mask;
      while (cache_[i].packed != 0) i = (i + 1) & mask;
      cache_[i] = s;
    }
  }

  /// Index of column c's type in known_ (a column added after construction).
  uint32_t known_type(ColumnId c) {
    if (c >= type_of_column_.size()) type_of_column_.resize(std::max<size_t>(c + 1, ctx_.column_count()), kUnknown);
    uint32_t& k = type_of_column_[c];
    if (k == kUnknown) k = known(ctx_.column_type(c));
    return k;
  }

  uint32_t known(const DataType& t) {
    const uint32_t key = static_cast<uint32_t>(t.id) | uint32_t{t.precision} << 8 | uint32_t{t.scale} << 16;
    for (size_t i = 0; i < known_keys_.size(); ++i)
      if (known_keys_[i] == key) return static_cast<uint32_t>(i);
    known_keys_.push_back(key);
    std::string name = t.to_string();
    mapper::PlanMapper::TypeNameId id = pm_.intern_type_name(name);
    known_.push_back(Known{std::move(name), id});
    count_.push_back(0);
    by_name_.push_back(static_cast<uint32_t>(known_.size() - 1));
    std::sort(by_name_.begin(), by_name_.end(), [&](uint32_t a, uint32_t b) { return known_[a].name < known_[b].name; });
    return static_cast<uint32_t>(known_.size() - 1);
  }

  static constexpr uint32_t kUnknown = UINT32_MAX;
  const PlanContext& ctx_;
  mapper::PlanMapper& pm_;
  std::vector<Known> known_;
  std::vector<uint32_t> known_keys_;       // per known type: id, precision and scale in one word
  std::vector<uint32_t> by_name_;          // indices into known_, in type-name order
  std::vector<uint32_t> count_;            // per known type: columns of the operator being listed
  std::vector<uint32_t> type_of_column_;   // per column id: index into known_, or kUnknown
  std::vector<mapper::PlanMapper::TypeNameId> ids_;
  std::vector<CacheSlot> cache_;           // packed counts -> schema
  size_t cached_ = 0;
};

/// "<kind> #<id>", then `suffix`.
std::string short_label(std::string_view kind, int64_t id, std::string_view suffix = {}) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, id).ptr;
  std::string label;
  label.reserve(kind.size() + 2 + static_cast<size_t>(end - digits) + suffix.size());
  label.append(kind).append(" #").append(digits, end).append(suffix);
  return label;
}

template <class Op>
std::string label_of(const Op& op, const char* kind_name, const PlanContext& ctx, bool detailed) {
  std::string label = short_label(kind_name, op.id);
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

void NodeEntityMap::insert_or_assign(NodeId id, mapper::EntityId entity) {
  if (id >= slots_.size()) {
    size_t old = slots_.size();
    slots_.resize(id + 1);
    for (size_t i = old; i < slots_.size(); ++i) slots_[i] = {static_cast<NodeId>(i), kAbsent};
  }
  if (slots_[id].second == kAbsent) ++size_;
  slots_[id].second = entity;
}

namespace {
/// The memory of finished mappings, for the next map_query on this thread.
struct MappingStorage {
  mapper::PlanMapper mapper;
  NodeEntityMap logical, physical;
};
constexpr size_t kPooledMappings = 4;
/// nullptr once this thread's pool is destroyed (see PlanSigner::tables_pool).
std::vector<MappingStorage>* mapping_pool() {
  static thread_local bool gone = false;
  if (gone) return nullptr;
  struct Pool {
    std::vector<MappingStorage> items;
    ~Pool() { gone = true; }
  };
  thread_local Pool pool;
  return &pool.items;
}
}  // namespace

QueryMapping::~QueryMapping() {
  std::vector<MappingStorage>* pool = mapping_pool();
  if (pool && pool->size() < kPooledMappings) pool->push_back({std::move(mapper), std::move(logical), std::move(physical)});
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

std::unique_ptr<QueryMapping> map_query(const CompiledQuery& cq, const ExecutedQuery* run, const Settings& settings,
                                        bool detailed_labels) {
  auto m = std::make_unique<QueryMapping>();
  if (std::vector<MappingStorage>* pool = mapping_pool(); pool && !pool->empty()) {
    m->mapper = std::move(pool->back().mapper);
    m->logical = std::move(pool->back().logical);
    m->physical = std::move(pool->back().physical);
    pool->pop_back();
    m->mapper.clear();
    m->logical.clear();
    m->physical.clear();
  }
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

    // Entities for every operator of the final plans, and (while each node is at hand) the
    // signatures they are linked to below, after the links of the earlier stages.
    SchemaLister schema_of(cq.ctx, pm);
    struct SignatureLink {
      mapper::EntityId entity;
      const NodeSignatures* sigs;
      bool logical;
    };
    std::vector<SignatureLink> signature_links;
    signature_links.reserve(operators);
    // Without details a label is "<kind> #<id>": left to the mapper to spell when someone reads it.
    auto add = [&](const auto& op, mapper::EntityKind kind, const char* kind_name, NodeEntityMap& entities) {
      const mapper::EntityId e = detailed_labels
                                     ? pm.add_with_schema(kind, label_of(op, kind_name, cq.ctx, true), schema_of(op.outputs))
                                     : pm.add_numbered(kind, kind_name, op.id, schema_of(op.outputs));
      entities.insert_or_assign(op.id, e);
      signature_links.push_back({e, &signer.sign(op), kind == mapper::EntityKind::Logical});
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
      mapper::EntityId e = pm.add_numbered(mapper::EntityKind::Logical, "logical", id, " (rewritten away)");
      m->logical.insert_or_assign(id, e);
      return e;
    };

    const mapper::PlanMapper::StageId bind = pm.stage_id("bind"), physical = pm.stage_id("physical"),
                                      signature = pm.stage_id("signature"), join_set = pm.stage_id("signature:join_set");

    // bind: AST node -> logical operator.
    // AST ids are dense within a statement (-1: none was assigned); one entity per id.
    int max_ast = -1;
    for (auto& l : cq.ast_links) max_ast = std::max(max_ast, l.ast_id);
    std::vector<mapper::EntityId> ast(static_cast<size_t>(max_ast + 2), UINT32_MAX);  // [0]: id -1
    for (auto& l : cq.ast_links) {
      mapper::EntityId& e = ast[static_cast<size_t>(std::max(l.ast_id, -1) + 1)];
      if (e == UINT32_MAX) e = pm.add_numbered(mapper::EntityKind::Ast, "ast", l.ast_id);
      pm.connect(e, logical_entity(l.node), bind);
    }
    // rewrite: replaced -> replacement.
    // A few rules make many links: one interned stage per rule name.
    std::vector<std::pair<std::string_view, mapper::PlanMapper::StageId>> rule_stages;
    std::string stage;
    for (auto& r : cq.rewrite_links) {
      auto it = std::find_if(rule_stages.begin(), rule_stages.end(), [&](const auto& rs) { return rs.first == r.rule; });
      if (it == rule_stages.end()) {
        stage.assign("rewrite:").append(r.rule);
        it = rule_stages.insert(rule_stages.end(), {r.rule, pm.stage_id(stage)});
      }
      pm.connect(logical_entity(r.before), logical_entity(r.after), it->second);
    }
    // physical: logical -> physical.
    for (auto& p : cq.physical_links)
      if (auto it = m->physical.find(p.physical); it != m->physical.end()) pm.connect(logical_entity(p.logical), it->second, physical);
    // signature: every operator -> its exact signature (equal signatures are one entity); inner
    // joins also -> their join-set signature, the same for every join order and algorithm.
    for (const SignatureLink& l : signature_links) {
      pm.connect(l.entity, pm.signature(l.sigs->exact.hi, l.sigs->exact.lo), signature);
      if (l.logical && l.sigs->join_set) pm.connect(l.entity, pm.signature(l.sigs->join_set->hi, l.sigs->join_set->lo, "join-set "), join_set);
    }

    // exec: physical -> each executable operator it became; with a run, the rows it produced.
    if (run && run->exec) {
      for (auto& n : run->exec->nodes) {
        auto e = pm.add(mapper::EntityKind::Exec, short_label(n.role, n.exec_id));
        m->exec[n.exec_id] = e;
        if (auto it = m->physical.find(n.physical_id); it != m->physical.end()) pm.link(it->second, e, "exec");
      }
      // The output operator of each physical node carries its row count.
      auto attach = [&](const PhysicalOperator& op) {
        auto ids = run->exec->exec_ids_of.find(op.id);
        if (ids == run->exec->exec_ids_of.end()) return;
        int out_id = op.kind == PhysicalOpKind::Exchange ? ids->second[0] : ids->second.back();
        auto st = run->stats.find(out_id);
        if (st == run->stats.end() || !m->exec.count(out_id)) return;
        uint64_t rows = op.kind == PhysicalOpKind::Exchange ? st->second.rows_in : st->second.rows_out;
        pm.attach_stats(m->exec.at(out_id), {static_cast<double>(rows), st->second.complete, "observed"});
      };
      for (auto& c : cq.ctes) post_order(*c.physical, attach);
      post_order(*cq.physical, attach);
    }
  } catch (const mapper::MapperConflict& e) {
    throw Error(ErrorCode::INTERNAL, std::string("mapper conflict (mapper_strict): ") + e.what());
  }
  return m;
}

}  // namespace hindsight
