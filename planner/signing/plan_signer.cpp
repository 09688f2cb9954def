#include "planner/signing/plan_signer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <functional>
#include <type_traits>

#include "mapper/append.hpp"
#include "planner/signing/expr_normalizer.hpp"
#include "signatures/token_writer.hpp"
#include "signatures/hash128.hpp"

namespace hindsight {

namespace {

using sig::TokenWriter;
using sig::Signature;

/// Placeholder type tags are coarse (DECIMAL, not DECIMAL(3,2)) so recurring queries with new
/// literals of another width still share a template.
const char* type_tag(const DataType& t) {
  switch (t.id) {
    case TypeId::Null: return "null";
    case TypeId::Boolean: return "boolean";
    case TypeId::Integer:
    case TypeId::BigInt: return "integer";
    case TypeId::Double: return "double";
    case TypeId::Decimal: return "decimal";
    case TypeId::Varchar: return "varchar";
    case TypeId::Date: return "date";
  }
  return "?";
}

/// The full SQL type ("BIGINT", "DECIMAL(15,2)") without allocating: written into `buf`.
std::string_view type_text(const DataType& t, char (&buf)[32]) {
  const char* name = "?";
  switch (t.id) {
    case TypeId::Null: name = "NULL"; break;
    case TypeId::Boolean: name = "BOOLEAN"; break;
    case TypeId::Integer: name = "INTEGER"; break;
    case TypeId::BigInt: name = "BIGINT"; break;
    case TypeId::Double: name = "DOUBLE"; break;
    case TypeId::Decimal: name = "DECIMAL"; break;
    case TypeId::Varchar: name = "VARCHAR"; break;
    case TypeId::Date: name = "DATE"; break;
  }
  if (t.id != TypeId::Decimal) return name;
  char* p = std::copy_n("DECIMAL(", 8, buf);
  p = std::to_chars(p, buf + sizeof buf, static_cast<int>(t.precision)).ptr;
  *p++ = ',';
  p = std::to_chars(p, buf + sizeof buf, static_cast<int>(t.scale)).ptr;
  *p++ = ')';
  return std::string_view(buf, static_cast<size_t>(p - buf));
}

/// scalar_op_name for every value the enum's type can hold, as string views (no strlen per call).
const std::array<std::string_view, 256> kScalarOpNames = [] {
  std::array<std::string_view, 256> t;
  for (size_t i = 0; i < t.size(); ++i) t[i] = scalar_op_name(static_cast<ScalarOp>(i));
  return t;
}();
static_assert(sizeof(ScalarOp) == 1, "kScalarOpNames covers a one-byte enum");

bool commutative(ScalarOp op) { return op == ScalarOp::Add || op == ScalarOp::Mul || op == ScalarOp::Eq || op == ScalarOp::Ne; }

const char* expr_kind_name(ExprKind k) {
  static const char* names[] = {"ref", "const", "call", "case", "cast", "in", "like", "is_null", "not", "and", "or"};
  return names[static_cast<int>(k)];
}

/// Writes the canonical bytes of one expression node whose children are already digested
/// (`kids`, in the encoder's mode). `e` supplies the node's own fields; `kind` may differ from
/// e.kind only for the implicit AND of a conjunct list (then `e` is unused). Never a column
/// reference: a reference digests as its column's lineage.
template <class KidDigest>
void write_expr_node(TokenWriter& enc, ExprKind kind, const Expr* e, size_t n, const KidDigest& kid) {
  char buf[32];
  switch (kind) {
    case ExprKind::Constant: {
      const Value& v = e->value;
      const char* tag = type_tag(e->type);
      if (v.is_null) enc.constant_null(tag);
      else if (e->type.physical() == PhysicalKind::Double) enc.constant_f64(tag, v.d);
      else if (e->type.physical() == PhysicalKind::String) enc.constant_str(tag, v.s);
      // DECIMAL constants are encoded by value, not by scaled integer: 0.5 and 0.50 are equal.
      else if (e->type.id == TypeId::Decimal) enc.constant_f64(tag, v.as_double());
      else enc.constant_i64(tag, v.i);
      break;
    }
    case ExprKind::Call: {
      // `a > b` is written as `b < a` (and >= as <=): the normal form keeps only < and <=, so a
      // comparison needs no rewritten copy of its tree to be digested.
      const bool mirrored = (e->op == ScalarOp::Gt || e->op == ScalarOp::Ge) && n == 2;
      const ScalarOp op = mirrored ? mirror_comparison(e->op) : e->op;
      const size_t list = enc.begin("call").str(kScalarOpNames[static_cast<uint8_t>(op)]).str(type_text(e->type, buf)).begin_list();
      if (mirrored) {
        enc.sig(kid(1)).sig(kid(0));
      } else if (commutative(e->op) && n == 2) {
        Signature a = kid(0), b = kid(1);
        if (b < a) std::swap(a, b);
        enc.sig(a).sig(b);
      } else {
        for (size_t i = 0; i < n; ++i) enc.sig(kid(i));
      }
      enc.end_list(list);
      break;
    }
    case ExprKind::And:
    case ExprKind::Or: {
      const size_t set = enc.begin(kind == ExprKind::And ? "and" : "or").begin_set();
      for (size_t i = 0; i < n; ++i) enc.sig(kid(i));
      enc.end_set(set, TokenWriter::kSigToken);
      break;
    }
    case ExprKind::InList: {
      const size_t set = enc.begin(e->negated ? "not_in" : "in").sig(kid(0)).begin_set();
      for (size_t i = 1; i < n; ++i) enc.sig(kid(i));
      enc.end_set(set, TokenWriter::kSigToken);
      break;
    }
    default: {
      const size_t list =
          enc.begin(expr_kind_name(kind)).boolean(e->negated).boolean(e->has_else).str(type_text(e->type, buf)).begin_list();
      for (size_t i = 0; i < n; ++i) enc.sig(kid(i));
      enc.end_list(list);
    }
  }
}

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

/// v.push_back(x) with the reallocation out of line (the mapper's helper for the same purpose):
/// digest stacks grow by a few per expression node and almost never reallocate once warm.
template <class T>
[[gnu::always_inline]] inline void push(std::vector<T>& v, const T& x) {
  mapper::detail::append(v, x);
}

std::string_view kind_text(const LogicalOperator& op) { return logical_kind_text(op.kind); }
std::string_view kind_text(const PhysicalOperator& op) { return physical_kind_text(op.kind); }

bool inner_join(const LogicalOperator& o) {
  return o.kind == LogicalKind::Join && o.as<LogicalJoin>().type == LogicalJoinType::Inner;
}

}  // namespace

struct PlanSigner::Scratch {
  TokenWriter form;                                       // node forms (no constants: mode unused)
  TokenWriter expr_exact{TokenWriter::Mode::Exact};
  TokenWriter expr_templ{TokenWriter::Mode::Template};
  TokenWriter aux;                                        // output lineages, aggregate outputs
  TokenWriter lineage;                                    // base / unknown column lineages
  std::vector<Digests> digest_stack;  // children digests of the expression nodes being digested
  std::vector<Digests> tape;          // digests written into the exact form, replayed for the template form
  std::vector<Signature> exact_children, templ_children;
};

thread_local PlanSigner::Scratch* PlanSigner::top_scratch_ = nullptr;

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

inline PlanSigner::Scratch& PlanSigner::scratch(size_t depth) {
  if (depth == 0 && top_scratch_) [[likely]] return *top_scratch_;
  return scratch_slow(depth);
}

/// Writes an operator's parameters into its form. Four passes: exact writes exact digests
/// (expressions normalized and digested, both digests at once) and notes whether any digest it
/// wrote differs in template mode; record does the same and keeps every digest on the tape, from
/// which replay writes the template form without computing anything again; template writes
/// template digests, computing them again (a template asked for after an exact-only signing).
/// Node parameters hold no constants themselves (they are inside expression digests), so when no
/// digest differs the template form is the exact form.
class SignatureParamWriter : public ParamWriter {
 public:
  enum class Pass { Exact, Record, Replay, Template };
  SignatureParamWriter(PlanSigner& s, TokenWriter& enc, Pass pass) : s_(s), enc_(enc), pass_(pass) {}

  /// Exact and record passes: true if the template form differs from the exact one.
  bool differs() const { return differs_; }

  void text(std::string_view key, std::string_view value) override { enc_.field(key).str(value); }
  void number(std::string_view key, int64_t value) override { enc_.field(key).i64(value); }
  void conjuncts(std::string_view key, const std::vector<ExprPtr>& conj) override {
    enc_.field(key);
    if (conj.empty()) {
      enc_.boolean(true);
      return;
    }
    enc_.sig(put([&] { return s_.conjunction_digests(conj); }));
  }
  void exprs(std::string_view key, const std::vector<ExprPtr>& list) override {
    const size_t header = enc_.field(key).begin_list();
    const bool keep = pass_ == Pass::Exact || pass_ == Pass::Record;  // for define_outputs
    if (keep) {
      s_.last_exprs_src_ = &list;
      s_.last_exprs_.clear();
    }
    for (auto& e : list) {
      enc_.sig(put([&] {
        PlanSigner::Digests d = s_.normalized_expr_digests(*e);
        if (keep) s_.last_exprs_.push_back(d);
        return d;
      }));
    }
    enc_.end_list(header);
  }
  void columns(std::string_view key, const std::vector<ColumnId>& ids, bool ordered) override {
    const size_t start = ordered ? enc_.field(key).begin_list() : enc_.field(key).begin_set();
    for (ColumnId c : ids) enc_.sig(lineage(c));
    if (ordered) enc_.end_list(start);
    else enc_.end_set(start, TokenWriter::kSigToken);
  }
  void sort_keys(std::string_view key, const std::vector<SortKeyRef>& keys) override {
    const size_t list = enc_.field(key).begin_list();
    for (auto& k : keys) {
      const size_t item = enc_.begin_list();
      enc_.sig(lineage(k.column)).boolean(k.ascending).boolean(k.nulls_first).end_list(item);
    }
    enc_.end_list(list);
  }
  void aggregates(std::string_view key, const std::vector<AggregateCall>& aggs) override {
    const size_t list = enc_.field(key).begin_list();
    for (auto& a : aggs) aggregate(a);
    enc_.end_list(list);
  }
  void key_pairs(std::string_view key, const std::vector<ColumnId>& left, const std::vector<ColumnId>& right) override {
    const size_t set = enc_.field(key).begin_set();
    for (size_t i = 0; i < left.size(); ++i) {
      Signature a = lineage(left[i]);
      Signature b = lineage(right[i]);
      if (b < a) std::swap(a, b);
      const size_t item = enc_.begin_list();
      enc_.sig(a).sig(b).end_list(item);
    }
    enc_.end_set(set, TokenWriter::kSigPairToken);
  }
  void display(std::string_view, std::string_view) override {}
  bool wants_display() const override { return false; }

  /// One aggregate call as a list: kind, distinct, argument lineage (null for COUNT(*)).
  void aggregate(const AggregateCall& a) {
    const size_t list = enc_.begin_list();
    enc_.str(agg_kind_name(a.kind)).boolean(a.distinct);
    if (a.arg == kInvalidColumn) enc_.null();
    else enc_.sig(lineage(a.arg));
    enc_.end_list(list);
  }

 private:
  /// The digest this pass writes of what `compute` gives (both digests).
  template <class Compute>
  Signature put(Compute compute) {
    switch (pass_) {
      case Pass::Replay: return s_.sc_->tape[pos_++].templ;
      case Pass::Template: return compute().templ;
      case Pass::Record: {
        const PlanSigner::Digests d = compute();
        differs_ = differs_ || d.exact != d.templ;
        s_.sc_->tape.push_back(d);
        return d.exact;
      }
      case Pass::Exact: break;
    }
    const PlanSigner::Digests d = compute();
    differs_ = differs_ || d.exact != d.templ;
    return d.exact;
  }
  Signature lineage(ColumnId c) {
    if (pass_ != Pass::Exact) return put([&] { return s_.lineage_digests(c); });
    // A pending template digest is one whose producer's template differs from its exact signature:
    // so does the digest (the exact pass need not compute it).
    const PlanSigner::LineageSlot& slot = s_.known_lineage_slot(c);
    differs_ = differs_ || slot.pending != 0 || slot.d.exact != slot.d.templ;
    return slot.d.exact;
  }

  PlanSigner& s_;
  TokenWriter& enc_;
  const Pass pass_;
  bool differs_ = false;
  size_t pos_ = 0;
};

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

sig::Signature PlanSigner::lineage(ColumnId id, bool templ) {
  sc_ = &scratch(depth_);
  return templ ? lineage_digests(id).templ : known_lineage_slot(id).d.exact;
}

sig::Signature PlanSigner::expr_signature(const Expr& e, bool templ) {
  sc_ = &scratch(depth_);
  const Digests d = normalized_expr_digests(e);
  return templ ? d.templ : d.exact;
}

void PlanSigner::digest_origin(ColumnId id, LineageSlot& slot) {
  // Columns not produced by a signed node (base columns, or outer references) sign by their origin.
  const ColumnInfo& c = ctx_.column(id);
  TokenWriter& enc = sc_->lineage;
  enc.clear();
  if (!c.base_table.empty()) enc.begin("column").str(c.base_table).str(c.base_column);
  else enc.begin("unknown_column").str(c.name).str(c.type.to_string());
  Signature h = sig::hash128(enc.view());
  slot = LineageSlot{Digests{h, h}, epoch_, 0};
}

const PlanSigner::Digests& PlanSigner::lineage_digests(ColumnId id) {
  LineageSlot& slot = known_lineage_slot(id);
  if (slot.pending == 0) [[likely]] return slot.d;
  resolve_template(id);
  return t_->lineage[id].d;  // the table may have grown while the producer was signed
}

void PlanSigner::define(ColumnId id, const Digests& d) {
  lineage_slot(id) = LineageSlot{d, epoch_, 0};
}

void PlanSigner::grow_lineage(ColumnId id) { t_->lineage.resize(std::max<size_t>(id + 1, ctx_.column_count())); }

bool PlanSigner::base_column(ColumnId id) {
  std::vector<uint32_t>& base = t_->base;
  if (id >= base.size()) base.resize(std::max<size_t>(id + 1, ctx_.column_count()), 0);
  if ((base[id] >> 1) != epoch_) base[id] = epoch_ << 1 | (ctx_.column(id).base_table.empty() ? 0u : 1u);
  return base[id] & 1;
}

template <class Op>
void PlanSigner::define_output(ColumnId id, const Op& producer, const Slot& slot, size_t i) {
  constexpr bool physical = std::is_same_v<Op, PhysicalOperator>;
  const std::string_view kind = physical ? "physical_output" : "union_output";
  Digests d;
  d.exact = output_digest(kind, slot.sigs.exact, i);
  if (slot.templ_valid) {
    d.templ = slot.sigs.templ == slot.sigs.exact ? d.exact : output_digest(kind, slot.sigs.templ, i);
    define(id, d);
    return;
  }
  PendingLineage p;
  if constexpr (physical) p.physical = &producer;
  else p.logical = &producer;
  p.index = static_cast<uint32_t>(i);
  t_->pending.push_back(p);
  d.templ = d.exact;  // not read while pending
  lineage_slot(id) = LineageSlot{d, epoch_, static_cast<uint32_t>(t_->pending.size())};
}

void PlanSigner::resolve_template(ColumnId id) {
  const PendingLineage p = t_->pending[t_->lineage[id].pending - 1];
  // This may run while another node's form or an expression is being written: the producer is
  // signed with the next depth's scratch, and the caches of the node being signed are put back.
  Scratch* const sc = sc_;
  const std::vector<ExprPtr>* const conj_src = last_conj_src_;
  ExprPtr conj = std::move(last_conj_);
  std::vector<Signature> conj_parts = std::move(last_conj_parts_);
  const std::vector<ExprPtr>* const exprs_src = last_exprs_src_;
  std::vector<Digests> exprs = std::move(last_exprs_);
  ++depth_;
  const Signature producer = p.physical ? sign(*p.physical).templ : sign(*p.logical).templ;
  sc_ = &scratch(depth_);
  const Signature templ = output_digest(p.physical ? "physical_output" : "union_output", producer, p.index);
  --depth_;
  sc_ = sc;
  last_conj_src_ = conj_src;
  last_conj_ = std::move(conj);
  last_conj_parts_ = std::move(conj_parts);
  last_exprs_src_ = exprs_src;
  last_exprs_ = std::move(exprs);
  LineageSlot& slot = t_->lineage[id];
  slot.d.templ = templ;
  slot.pending = 0;
}

PlanSigner::Digests PlanSigner::expr_digests(const Expr& e) {
  // A reference is what it refers to: its digest is the column's lineage (no hash of its own).
  if (e.kind == ExprKind::ColumnRef) return lineage_digests(e.column_id);
  std::vector<Digests>& stack = sc_->digest_stack;
  const size_t base = stack.size();
  const size_t n = e.children.size();
  bool same = e.kind != ExprKind::Constant;  // exact and template bytes can only differ at a constant
  for (auto& c : e.children) {
    Digests d = expr_digests(*c);
    same = same && d.exact == d.templ;
    push(stack, d);
  }
  Digests out;
  TokenWriter& ex = sc_->expr_exact;
  ex.clear();
  write_expr_node(ex, e.kind, &e, n, [&](size_t i) { return stack[base + i].exact; });
  out.exact = sig::hash128(ex.view());
  if (same) {
    out.templ = out.exact;  // identical bytes in template mode: no second pass
  } else {
    TokenWriter& tp = sc_->expr_templ;
    tp.clear();
    write_expr_node(tp, e.kind, &e, n, [&](size_t i) { return stack[base + i].templ; });
    out.templ = sig::hash128(tp.view());
  }
  stack.resize(base);
  return out;
}

PlanSigner::Digests PlanSigner::normalized_expr_digests(const Expr& e) {
  if (is_normalized_for_signature(e)) return expr_digests(e);
  ExprPtr n = normalize_for_signature(e);
  return expr_digests(*n);
}

PlanSigner::Digests PlanSigner::conjunction_digests(const std::vector<ExprPtr>& conj) {
  // The conjunction is normalized as one expression (absorption works across conjuncts).
  last_conj_src_ = &conj;
  last_conj_.reset();
  last_conj_parts_.clear();
  bool normal = true;
  for (auto& c : conj) normal = normal && !c->is_constant() && is_normalized_for_signature(*c);
  if (normal && conj.size() == 1) {
    Digests d = expr_digests(*conj[0]);
    last_conj_parts_.push_back(d.exact);
    return d;
  }
  if (normal) {
    // AND of normalized operands that are neither constants nor AND/OR: normalizing would give
    // back the same AND; digest it without building it.
    std::vector<Digests>& stack = sc_->digest_stack;
    const size_t base = stack.size();
    bool same = true;
    for (auto& c : conj) {
      Digests d = expr_digests(*c);
      same = same && d.exact == d.templ;
      push(stack, d);
      last_conj_parts_.push_back(d.exact);
    }
    Digests out;
    TokenWriter& ex = sc_->expr_exact;
    ex.clear();
    write_expr_node(ex, ExprKind::And, nullptr, conj.size(), [&](size_t i) { return stack[base + i].exact; });
    out.exact = sig::hash128(ex.view());
    if (same) {
      out.templ = out.exact;
    } else {
      TokenWriter& tp = sc_->expr_templ;
      tp.clear();
      write_expr_node(tp, ExprKind::And, nullptr, conj.size(), [&](size_t i) { return stack[base + i].templ; });
      out.templ = sig::hash128(tp.view());
    }
    stack.resize(base);
    return out;
  }
  last_conj_ = normalize_for_signature(make_conjunction(conj));
  return expr_digests(*last_conj_);
}

void PlanSigner::split_predicate_digests(const Expr& e, std::vector<Signature>& out) {
  if (e.kind == ExprKind::And) {
    for (auto& c : e.children) split_predicate_digests(*c, out);
    return;
  }
  out.push_back(expr_digests(e).exact);
}

template <class Op>
void PlanSigner::sign_form(const Op& op, std::string_view kind, Slot& slot, bool templ, bool children_same) {
  Scratch& sc = *sc_;
  last_conj_src_ = nullptr;
  last_exprs_src_ = nullptr;
  // The form is written after room for the tree hash's header, and hashed where it is.
  sc.form.clear_reserving(sig::kTreeHeaderBytes);
  sc.form.begin(kind);
  if (!templ) {
    SignatureParamWriter exact(*this, sc.form, SignatureParamWriter::Pass::Exact);
    op.write_params(exact);
    slot.sigs.exact = sig::tree_signature_in_place(sc.form.bytes(), sc.exact_children);
    // Same form bytes and children in both modes: the same signature. Else computed when asked for.
    slot.templ_valid = !exact.differs() && children_same;
    if (slot.templ_valid) slot.sigs.templ = slot.sigs.exact;
    return;
  }
  sc.tape.clear();
  SignatureParamWriter record(*this, sc.form, SignatureParamWriter::Pass::Record);
  op.write_params(record);
  slot.sigs.exact = sig::tree_signature_in_place(sc.form.bytes(), sc.exact_children);
  slot.templ_valid = true;
  if (!record.differs()) {
    // Same form bytes in both modes: only the children can make the template signature differ.
    slot.sigs.templ = children_same ? slot.sigs.exact : sig::tree_signature_in_place(sc.form.bytes(), sc.templ_children);
    return;
  }
  sc.form.clear_reserving(sig::kTreeHeaderBytes);
  sc.form.begin(kind);
  SignatureParamWriter replay(*this, sc.form, SignatureParamWriter::Pass::Replay);
  op.write_params(replay);
  slot.sigs.templ = sig::tree_signature_in_place(sc.form.bytes(), sc.templ_children);
}

template <class Op>
Signature PlanSigner::template_form_signature(const Op& op, std::string_view kind) {
  Scratch& sc = *sc_;
  last_conj_src_ = nullptr;
  last_exprs_src_ = nullptr;
  sc.form.clear_reserving(sig::kTreeHeaderBytes);
  sc.form.begin(kind);
  SignatureParamWriter w(*this, sc.form, SignatureParamWriter::Pass::Template);
  op.write_params(w);
  return sig::tree_signature_in_place(sc.form.bytes(), sc.templ_children);
}

PlanSigner::Digests PlanSigner::aggregate_output_digests(const LogicalAggregate& a, size_t i) {
  Scratch& sc = *sc_;
  auto write = [&](SignatureParamWriter& w) {
    sc.aux.clear();
    sc.aux.begin("aggregate_output");
    w.columns("groups", a.groups, false);
    const size_t list = sc.aux.field("aggregate").begin_list();
    w.aggregate(a.aggs[i]);
    sc.aux.end_list(list);
  };
  SignatureParamWriter exact(*this, sc.aux, SignatureParamWriter::Pass::Exact);
  write(exact);
  Digests d;
  d.exact = sig::hash128(sc.aux.view());
  if (!exact.differs()) {
    d.templ = d.exact;
  } else {
    SignatureParamWriter templ(*this, sc.aux, SignatureParamWriter::Pass::Template);
    write(templ);
    d.templ = sig::hash128(sc.aux.view());
  }
  return d;
}

Signature PlanSigner::output_digest(std::string_view kind, const Signature& producer, size_t i) {
  TokenWriter& enc = sc_->aux;
  enc.clear();
  enc.begin(kind).sig(producer).i64(static_cast<int64_t>(i));
  return sig::hash128(enc.view());
}

void PlanSigner::define_outputs(const LogicalOperator& op, const Slot& slot) {
  switch (op.kind) {
    case LogicalKind::Project: {
      auto& p = op.as<LogicalProject>();
      const bool cached = last_exprs_src_ == &p.exprs && last_exprs_.size() == p.exprs.size();
      for (size_t i = 0; i < p.exprs.size(); ++i)
        if (!(p.exprs[i]->kind == ExprKind::ColumnRef && p.exprs[i]->column_id == p.outputs[i]))
          define(p.outputs[i], cached ? last_exprs_[i] : normalized_expr_digests(*p.exprs[i]));
      break;
    }
    case LogicalKind::Aggregate: {
      auto& a = op.as<LogicalAggregate>();
      for (size_t i = 0; i < a.aggs.size(); ++i) define(a.outputs[a.groups.size() + i], aggregate_output_digests(a, i));
      break;
    }
    case LogicalKind::UnionAll:
      for (size_t i = 0; i < op.outputs.size(); ++i) define_output(op.outputs[i], op, slot, i);
      break;
    case LogicalKind::CteRef: {
      auto& r = op.as<LogicalCteRef>();
      for (size_t i = 0; i < r.outputs.size(); ++i) {
        const LineageSlot produced = known_lineage_slot(r.producer_columns[i]);  // pending stays pending
        lineage_slot(r.outputs[i]) = produced;
      }
      break;
    }
    default: break;
  }
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
  auto add = [&](const Op& c) {
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

template <class Op>
void PlanSigner::sign_template_of(const Op& op, Slot& slot) {
  for (auto& c : op.children) signed_slot_of(*c, true);
  const Op* producer = producer_of(op);
  if (producer) signed_slot_of(*producer, true);
  sc_ = &scratch(depth_);
  Scratch& sc = *sc_;
  sc.templ_children.clear();
  const InputRule rule = input_rule(op);
  for (auto& c : op.children) sc.templ_children.push_back(input_signatures(*c, rule, true).templ);
  if (producer) sc.templ_children.push_back(input_signatures(*producer, rule, true).templ);
  slot.sigs.templ = template_form_signature(op, kind_text(op));
  slot.templ_valid = true;
  if constexpr (std::is_same_v<Op, LogicalOperator>)
    if (inner_join(op)) template_join_set(op, slot);
  last_conj_.reset();
}

PlanSigner::InputRule PlanSigner::input_rule(const LogicalOperator& parent) {
  if (parent.kind == LogicalKind::UnionAll) return InputRule::Positional;
  return inner_join(parent) ? InputRule::JoinTree : InputRule::Relation;
}

PlanSigner::InputRule PlanSigner::input_rule(const PhysicalOperator& parent) {
  return parent.kind == PhysicalOpKind::UnionAll ? InputRule::Positional : InputRule::JoinTree;
}

PlanSigner::InputSigs PlanSigner::input_signatures(const LogicalOperator& c, InputRule rule, bool templ) {
  const LogicalOperator* n = &c;
  // A projection changes no row: what a parent computes over its columns is named by their
  // lineage, which already holds the projected expressions.
  if (rule != InputRule::Positional)
    while (n->kind == LogicalKind::Project) n = n->children[0].get();
  const Slot& s = *t_->logical.find(n->id);
  InputSigs out;
  if (rule == InputRule::Relation && inner_join(*n)) {
    const JoinSetSlot& js = t_->join_sets[n->id];
    out.exact = *s.sigs.join_set;
    out.same = js.templ_valid && js.templ_sig == out.exact;
    if (templ) out.templ = js.templ_sig;
    return out;
  }
  out.exact = s.sigs.exact;
  out.same = s.templ_valid && s.sigs.templ == s.sigs.exact;
  if (templ) out.templ = s.sigs.templ;
  return out;
}

PlanSigner::InputSigs PlanSigner::input_signatures(const PhysicalOperator& c, InputRule rule, bool templ) {
  const PhysicalOperator* n = &c;
  if (rule != InputRule::Positional)
    while (n->kind == PhysicalOpKind::Project) n = n->children[0].get();
  const Slot& s = *t_->physical.find(n->id);
  InputSigs out;
  out.exact = s.sigs.exact;
  out.same = s.templ_valid && s.sigs.templ == s.sigs.exact;
  if (templ) out.templ = s.sigs.templ;
  return out;
}

PlanSigner::Slot& PlanSigner::signed_slot(const LogicalOperator& op, bool templ) { return signed_slot_of(op, templ); }
PlanSigner::Slot& PlanSigner::signed_slot(const PhysicalOperator& op, bool templ) { return signed_slot_of(op, templ); }



const NodeSignatures& PlanSigner::sign(const LogicalOperator& op) { return signed_slot(op, true).sigs; }


std::optional<sig::Signature> PlanSigner::join_set(const LogicalOperator& op, const Slot& slot) {
  if (!inner_join(op)) return std::nullopt;
  // Children are signed (and their sets recorded) before their parent: this join's set is theirs
  // (an input that is not an inner join is one input) plus its own predicates.
  if (op.id >= t_->join_sets.size()) t_->join_sets.resize(std::max<size_t>(op.id + 1, 2 * t_->join_sets.size()));
  sig::JoinSet set;
  for (auto& c : op.children) {
    if (inner_join(*c) && c->id < t_->join_sets.size() && t_->join_sets[c->id].valid) set.merge(t_->join_sets[c->id].set);
    else set.add_input(input_signatures(*c, InputRule::Relation, false).exact);
  }
  t_->join_preds.clear();
  const auto& conds = op.as<LogicalJoin>().conditions;
  if (last_conj_src_ == &conds && !last_conj_ && last_conj_parts_.size() == conds.size()) {
    // Every condition was already normal (neither AND nor OR): each is one predicate, digested
    // for the node's form.
    t_->join_preds.assign(last_conj_parts_.begin(), last_conj_parts_.end());
  } else {
    for (auto& c : conds) {
      if (conds.size() == 1 && last_conj_src_ == &conds && last_conj_) {
        split_predicate_digests(*last_conj_, t_->join_preds);  // normalized already for the node's form
      } else {
        predicate_digests(*c, t_->join_preds);
      }
    }
  }
  add_predicates(set);
  const Signature signature = set.signature();
  JoinSetSlot& js = t_->join_sets[op.id];
  js.set = set;
  js.valid = true;
  js.templ_valid = false;
  if (slot.templ_valid) {
    if (slot.sigs.templ == slot.sigs.exact) {
      // No constant in the tree: the template set is the exact one.
      js.templ_set = set;
      js.templ_sig = signature;
      js.templ_valid = true;
    } else {
      template_join_set(op, slot);
    }
  }
  return signature;
}

void PlanSigner::template_join_set(const LogicalOperator& op, const Slot&) {
  sig::JoinSet set;
  for (auto& c : op.children) {
    if (inner_join(*c)) set.merge(t_->join_sets[c->id].templ_set);  // its template is known: so is its set
    else set.add_input(input_signatures(*c, InputRule::Relation, true).templ);
  }
  // The same predicates as the exact set (each distinct exact predicate once), by template digest.
  std::vector<Digests>& preds = t_->templ_preds;
  preds.clear();
  std::function<void(const Expr&)> split = [&](const Expr& e) {
    if (e.kind == ExprKind::And) {
      for (auto& k : e.children) split(*k);
      return;
    }
    preds.push_back(expr_digests(e));
  };
  for (auto& c : op.as<LogicalJoin>().conditions) {
    if (is_normalized_for_signature(*c)) {
      split(*c);
    } else {
      ExprPtr n = normalize_for_signature(*c);
      split(*n);
    }
  }
  std::sort(preds.begin(), preds.end(), [](const Digests& a, const Digests& b) { return a.exact < b.exact; });
  preds.erase(std::unique(preds.begin(), preds.end(), [](const Digests& a, const Digests& b) { return a.exact == b.exact; }),
              preds.end());
  for (const Digests& p : preds) set.add_predicate(p.templ);
  JoinSetSlot& js = t_->join_sets[op.id];
  js.templ_set = set;
  js.templ_sig = set.signature();
  js.templ_valid = true;
}

void PlanSigner::predicate_digests(const Expr& condition, std::vector<sig::Signature>& out) {
  if (is_normalized_for_signature(condition)) {
    split_predicate_digests(condition, out);
  } else {
    ExprPtr n = normalize_for_signature(condition);
    split_predicate_digests(*n, out);
  }
}

void PlanSigner::add_predicates(sig::JoinSet& set) {
  std::sort(t_->join_preds.begin(), t_->join_preds.end());
  t_->join_preds.erase(std::unique(t_->join_preds.begin(), t_->join_preds.end()), t_->join_preds.end());
  for (const Signature& p : t_->join_preds) set.add_predicate(p);
}

sig::Signature PlanSigner::join_set_of(const std::vector<const LogicalOperator*>& inputs,
                                      const std::vector<const Expr*>& conditions) {
  // As join_set(): each condition normalized on its own, AND-split into predicates.
  sig::JoinSet set;
  for (const LogicalOperator* op : inputs) {
    signed_slot(*op, false);
    set.add_input(input_signatures(*op, InputRule::Relation, false).exact);
  }
  t_->join_preds.clear();
  for (const Expr* c : conditions) predicate_digests(*c, t_->join_preds);
  add_predicates(set);
  return set.signature();
}

void PlanSigner::define_outputs(const PhysicalOperator& op, const Slot& slot) {
  // Physical-only columns (partial aggregate states, computed join keys) sign by their producer.
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    ColumnId c = op.outputs[i];
    if (lineage_known(c) || base_column(c)) continue;
    define_output(c, op, slot, i);
  }
}



const NodeSignatures& PlanSigner::sign(const PhysicalOperator& op) { return signed_slot(op, true).sigs; }


}  // namespace hindsight
