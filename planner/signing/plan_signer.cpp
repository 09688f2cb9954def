// The plan signer's core (docs/signatures.md): per-node slots, pooled tables and scratch, and the
// bottom-up walk (what a parent writes for each input is inline in plan_signer_internal.hpp).
// Expression digests and lineage, node forms, templates and join sets have a file each
// (plan_signer_*.cpp).
#include "planner/signing/plan_signer.hpp"

#include <algorithm>
#include <type_traits>

#include "planner/signing/plan_signer_internal.hpp"

namespace hindsight {

using signing::inner_join;
using signing::push;

namespace {

/// "physical:<operator name>" by kind, spelled once per process.
const std::vector<std::string> kPhysicalKindTexts = [] {
  std::vector<std::string> t;
  for (int k = 0; k <= static_cast<int>(PhysicalOpKind::CteScan); ++k)
    t.push_back(std::string("physical:") + physical_op_name(static_cast<PhysicalOpKind>(k)));
  return t;
}();

std::string_view physical_kind_text(PhysicalOpKind kind) {
  return kPhysicalKindTexts.at(static_cast<size_t>(kind));  // throws if a kind is added after CteScan without a text
}

/// logical_kind_name by kind, as string views (no strlen per node).
const std::vector<std::string_view> kLogicalKindTexts = [] {
  std::vector<std::string_view> t;
  for (int k = 0; k <= static_cast<int>(LogicalKind::CteRef); ++k) t.emplace_back(logical_kind_name(static_cast<LogicalKind>(k)));
  return t;
}();

std::string_view logical_kind_text(LogicalKind kind) {
  return kLogicalKindTexts.at(static_cast<size_t>(kind));  // throws if a kind is added after CteRef without a text
}

}  // namespace

namespace signing {
std::string_view kind_text(const LogicalOperator& op) { return logical_kind_text(op.kind); }
std::string_view kind_text(const PhysicalOperator& op) { return physical_kind_text(op.kind); }
}  // namespace signing

using signing::kind_text;

constinit thread_local PlanSigner::Scratch* PlanSigner::top_scratch_ = nullptr;

PlanSigner::Scratch& PlanSigner::scratch_slow(size_t depth) {
  if (depth == 0) {
    thread_local Scratch top;
    top_scratch_ = &top;
    return top;
  }
  thread_local std::vector<std::unique_ptr<Scratch>> nested;  // depth 1, 2, ...
  while (nested.size() < depth) nested.push_back(std::make_unique<Scratch>());
  return *nested[depth - 1];
}

namespace {
/// Finished signers' tables, kept for the next signer on this thread: a signer allocates nothing
/// once they have grown (a compile creates several signers, each one's tables sized by the plan).
constexpr size_t kPooledTables = 8;
}  // namespace

std::unique_ptr<PlanSigner::Tables> PlanSigner::acquire_tables() {
  std::vector<std::unique_ptr<Tables>>* pool = tables_pool();
  if (!pool || pool->empty()) return std::make_unique<Tables>();
  std::unique_ptr<Tables> t = std::move(pool->back());
  pool->pop_back();
  return t;
}

std::vector<std::unique_ptr<PlanSigner::Tables>>* PlanSigner::tables_pool() {
  // nullptr once this thread's pool is destroyed (a signer outliving it, e.g. in a static object
  // destroyed at exit, then frees its tables itself). The flag is trivially destructible, so it
  // can be read until the thread ends.
  static thread_local bool gone = false;
  if (gone) return nullptr;
  struct Pool {
    std::vector<std::unique_ptr<Tables>> items;
    ~Pool() { gone = true; }
  };
  thread_local Pool pool;
  return &pool.items;
}

void PlanSigner::Tables::reset() {
  logical.reset();
  physical.reset();
  join_sets.clear();
  pending.clear();
  join_preds.clear();
  set_preds.clear();
}

void PlanSigner::SlotTable::reset() {
  index_.clear();
  count_ = 0;  // chunks are kept; get() resets a slot when it hands it out again
}

PlanSigner::PlanSigner(const PlanContext& ctx) : ctx_(ctx), t_(acquire_tables()) {
  // Room by id for every node and column the context has given out so far: one zero fill each
  // instead of one per doubling.
  t_->logical.presize(ctx.node_id_bound());
  t_->physical.presize(ctx.node_id_bound());
  if (t_->lineage.size() < ctx.column_count()) t_->lineage.resize(ctx.column_count());
  epoch_ = ++t_->epoch;
  if (epoch_ >= (1u << 31)) {  // wrapped around (base stamps keep 31 bits): no slot may look known
    std::fill(t_->lineage.begin(), t_->lineage.end(), LineageSlot{});
    std::fill(t_->base.begin(), t_->base.end(), 0u);
    epoch_ = t_->epoch = 1;
  }
}

PlanSigner::~PlanSigner() {
  if (!t_) return;  // moved from
  std::vector<std::unique_ptr<Tables>>* pool = tables_pool();
  if (!pool || pool->size() >= kPooledTables) return;
  t_->reset();
  pool->push_back(std::move(t_));
}

PlanSigner::Slot& PlanSigner::SlotTable::get(NodeId id) {
  if (id >= index_.size()) index_.resize(std::max<size_t>(id + 1, 2 * index_.size()), 0);
  uint32_t& k = index_[id];
  if (k == 0) {
    if (count_ == chunks_.size() * kChunk) chunks_.push_back(std::make_unique<Slot[]>(kChunk));
    k = ++count_;
    // A chunk may be reused from an earlier signer: the flags say nothing is computed yet (every
    // signature is written before its flag is set).
    Slot& fresh = *at(k - 1);
    fresh.valid = fresh.templ_valid = false;
  }
  return *at(k - 1);
}

void PlanSigner::set_cte(int index, const LogicalOperator& root) {
  if (index < 0) return;
  if (static_cast<size_t>(index) >= ctes_.size()) ctes_.resize(static_cast<size_t>(index) + 1, nullptr);
  ctes_[static_cast<size_t>(index)] = &root;
}

void PlanSigner::forget(NodeId id) {
  if (id < t_->join_sets.size()) t_->join_sets[id].valid = t_->join_sets[id].templ_valid = false;
  if (Slot* s = t_->logical.find(id)) s->valid = s->templ_valid = false;
  if (Slot* s = t_->physical.find(id)) s->valid = s->templ_valid = false;
}

const LogicalOperator* PlanSigner::producer_of(const LogicalOperator& op) const {
  if (op.kind != LogicalKind::CteRef) return nullptr;
  // A reference signs as reading the producer's rows.
  const auto i = static_cast<size_t>(op.as<LogicalCteRef>().cte_index);
  return i < ctes_.size() ? ctes_[i] : nullptr;
}

template <class Op>
PlanSigner::Slot& PlanSigner::signed_slot_of(const Op& op, bool templ) {
  constexpr bool logical = std::is_same_v<Op, LogicalOperator>;
  SlotTable& slots = logical ? t_->logical : t_->physical;
  Slot& slot = slots.get(op.id);  // stays where it is while the children are signed
  if (slot.valid) {
    if (templ && !slot.templ_valid) sign_template_of(op, slot);
    return slot;
  }
  for (auto& c : op.children) signed_slot_of(*c, templ);
  const Op* producer = producer_of(op);
  if (producer) signed_slot_of(*producer, templ);
  sc_ = &scratch(depth_);
  // Every input is signed (cached now): collect their signatures without recursing.
  Scratch& sc = *sc_;
  sc.exact_children.clear();
  sc.templ_children.clear();
  bool children_same = true;  // every input's template is known and is its exact signature
  const InputRule rule = input_rule(op);
  auto add = [&](const Op& c) __attribute__((always_inline)) {
    const InputSigs s = input_signatures(c, rule, templ);
    push(sc.exact_children, s.exact);
    if (templ) push(sc.templ_children, s.templ);
    children_same = children_same && s.same;
  };
  for (auto& c : op.children) add(*c);
  if (producer) add(*producer);
  sign_form(op, kind_text(op), slot, templ, children_same);
  if constexpr (logical) slot.sigs.join_set = join_set(op, slot);
  else slot.sigs.join_set.reset();
  slot.valid = true;
  define_outputs(op, slot);
  last_conj_.reset();
  return slot;
}

PlanSigner::Slot& PlanSigner::signed_slot(const LogicalOperator& op, bool templ) { return signed_slot_of(op, templ); }
PlanSigner::Slot& PlanSigner::signed_slot(const PhysicalOperator& op, bool templ) { return signed_slot_of(op, templ); }

const NodeSignatures& PlanSigner::sign(const LogicalOperator& op) { return signed_slot(op, true).sigs; }

const NodeSignatures& PlanSigner::sign(const PhysicalOperator& op) { return signed_slot(op, true).sigs; }

}  // namespace hindsight
