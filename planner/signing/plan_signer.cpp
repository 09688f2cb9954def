#include "planner/signing/plan_signer.hpp"

#include <algorithm>
#include <charconv>

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
      const size_t list = enc.begin("call").str(scalar_op_name(op)).str(type_text(e->type, buf)).begin_list();
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

/// "physical:<operator name>", spelled once per kind.
std::string_view physical_kind_text(PhysicalOpKind kind) {
  static const auto texts = [] {
    std::vector<std::string> t;
    for (int k = 0; k <= static_cast<int>(PhysicalOpKind::CteScan); ++k)
      t.push_back(std::string("physical:") + physical_op_name(static_cast<PhysicalOpKind>(k)));
    return t;
  }();
  return texts.at(static_cast<size_t>(kind));  // throws if a kind is added after CteScan without a text
}

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

  void clear_children() {
    exact_children.clear();
    templ_children.clear();
  }
  void add_child(const NodeSignatures& s) {
    exact_children.push_back(s.exact);
    templ_children.push_back(s.templ);
  }
};

PlanSigner::Scratch& PlanSigner::scratch() {
  thread_local Scratch s;
  return s;
}

/// Writes an operator's parameters into its form. Record mode writes the exact form: expressions
/// are normalized and digested (both digests at once), and every digest written is kept on the
/// tape; replay mode writes the template form from the tape without computing anything again.
/// Node parameters hold no constants themselves (they are inside expression digests), so when no
/// recorded digest differs between exact and template, the template form is the exact form.
class SignatureParamWriter : public ParamWriter {
 public:
  SignatureParamWriter(PlanSigner& s, TokenWriter& enc, bool replay) : s_(s), enc_(enc), replay_(replay) {}

  /// Record mode: true if the template form differs from the exact one.
  bool differs() const { return differs_; }

  void text(std::string_view key, std::string_view value) override { enc_.field(key).str(value); }
  void number(std::string_view key, int64_t value) override { enc_.field(key).i64(value); }
  void conjuncts(std::string_view key, const std::vector<ExprPtr>& conj) override {
    enc_.field(key);
    if (conj.empty()) {
      enc_.boolean(true);
      return;
    }
    enc_.sig(pick(take([&] { return s_.conjunction_digests(conj); })));
  }
  void exprs(std::string_view key, const std::vector<ExprPtr>& list) override {
    const size_t header = enc_.field(key).begin_list();
    if (!replay_) {
      s_.last_exprs_src_ = &list;
      s_.last_exprs_.clear();
    }
    for (auto& e : list) {
      PlanSigner::Digests d = take([&] { return s_.normalized_expr_digests(*e); });
      if (!replay_) s_.last_exprs_.push_back(d);
      enc_.sig(pick(d));
    }
    enc_.end_list(header);
  }
  void columns(std::string_view key, const std::vector<ColumnId>& ids, bool ordered) override {
    const size_t start = ordered ? enc_.field(key).begin_list() : enc_.field(key).begin_set();
    for (ColumnId c : ids) enc_.sig(pick(lineage(c)));
    if (ordered) enc_.end_list(start);
    else enc_.end_set(start, TokenWriter::kSigToken);
  }
  void sort_keys(std::string_view key, const std::vector<SortKeyRef>& keys) override {
    const size_t list = enc_.field(key).begin_list();
    for (auto& k : keys) {
      const size_t item = enc_.begin_list();
      enc_.sig(pick(lineage(k.column))).boolean(k.ascending).boolean(k.nulls_first).end_list(item);
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
      Signature a = pick(lineage(left[i]));
      Signature b = pick(lineage(right[i]));
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
    else enc_.sig(pick(lineage(a.arg)));
    enc_.end_list(list);
  }

 private:
  template <class Compute>
  PlanSigner::Digests take(Compute compute) {
    std::vector<PlanSigner::Digests>& tape = s_.sc_->tape;
    if (replay_) return tape[pos_++];
    PlanSigner::Digests d = compute();
    differs_ = differs_ || d.exact != d.templ;
    tape.push_back(d);
    return d;
  }
  PlanSigner::Digests lineage(ColumnId c) {
    return take([&] { return s_.lineage_digests(c); });
  }
  Signature pick(const PlanSigner::Digests& d) const { return replay_ ? d.templ : d.exact; }

  PlanSigner& s_;
  TokenWriter& enc_;
  const bool replay_;
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
  lineage.clear();
  join_sets.clear();
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
  t_->lineage.resize(ctx.column_count());
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
    *at(k - 1) = Slot{};  // a chunk may be reused from an earlier signer
  }
  return *at(k - 1);
}

void PlanSigner::set_cte(int index, const LogicalOperator& root) {
  if (index < 0) return;
  if (static_cast<size_t>(index) >= ctes_.size()) ctes_.resize(static_cast<size_t>(index) + 1, nullptr);
  ctes_[static_cast<size_t>(index)] = &root;
}

void PlanSigner::forget(NodeId id) {
  if (id < t_->join_sets.size()) t_->join_sets[id].valid = false;
  if (Slot* s = t_->logical.find(id)) s->valid = false;
  if (Slot* s = t_->physical.find(id)) s->valid = false;
}

sig::Signature PlanSigner::lineage(ColumnId id, bool templ) {
  sc_ = &scratch();
  const Digests& d = lineage_digests(id);
  return templ ? d.templ : d.exact;
}

sig::Signature PlanSigner::expr_signature(const Expr& e, bool templ) {
  sc_ = &scratch();
  const Digests d = normalized_expr_digests(e);
  return templ ? d.templ : d.exact;
}

const PlanSigner::Digests& PlanSigner::lineage_digests(ColumnId id) {
  LineageSlot& slot = lineage_slot(id);
  if (!slot.known) {
    // Columns not produced by a signed node (base columns, or outer references) sign by their origin.
    const ColumnInfo& c = ctx_.column(id);
    TokenWriter& enc = sc_->lineage;
    enc.clear();
    if (!c.base_table.empty()) enc.begin("column").str(c.base_table).str(c.base_column);
    else enc.begin("unknown_column").str(c.name).str(c.type.to_string());
    Signature h = sig::hash128(enc.view());
    slot.d = Digests{h, h};
    slot.known = true;
  }
  return slot.d;
}

void PlanSigner::define(ColumnId id, const Digests& d) {
  lineage_slot(id) = LineageSlot{d, true};
}

PlanSigner::LineageSlot& PlanSigner::lineage_slot(ColumnId id) {
  if (id >= t_->lineage.size()) t_->lineage.resize(std::max<size_t>(id + 1, ctx_.column_count()));
  return t_->lineage[id];
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
    stack.push_back(d);
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
      stack.push_back(d);
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
void PlanSigner::sign_form(const Op& op, std::string_view kind, NodeSignatures& out) {
  Scratch& sc = *sc_;
  last_conj_src_ = nullptr;
  last_exprs_src_ = nullptr;
  sc.tape.clear();
  // The form is written after room for the tree hash's header, and hashed where it is.
  sc.form.clear_reserving(sig::kTreeHeaderBytes);
  sc.form.begin(kind);
  SignatureParamWriter record(*this, sc.form, false);
  op.write_params(record);
  out.exact = sig::tree_signature_in_place(sc.form.bytes(), sc.exact_children);
  if (!record.differs()) {
    // Same form bytes in both modes: only the children can make the template signature differ.
    out.templ = sc.exact_children == sc.templ_children ? out.exact
                                                       : sig::tree_signature_in_place(sc.form.bytes(), sc.templ_children);
    return;
  }
  sc.form.clear_reserving(sig::kTreeHeaderBytes);
  sc.form.begin(kind);
  SignatureParamWriter replay(*this, sc.form, true);
  op.write_params(replay);
  out.templ = sig::tree_signature_in_place(sc.form.bytes(), sc.templ_children);
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
  sc.tape.clear();
  SignatureParamWriter record(*this, sc.aux, false);
  write(record);
  Digests d;
  d.exact = sig::hash128(sc.aux.view());
  if (!record.differs()) {
    d.templ = d.exact;
  } else {
    SignatureParamWriter replay(*this, sc.aux, true);
    write(replay);
    d.templ = sig::hash128(sc.aux.view());
  }
  return d;
}

PlanSigner::Digests PlanSigner::output_digests(std::string_view kind, const NodeSignatures& producer, size_t i) {
  TokenWriter& enc = sc_->aux;
  Digests d;
  enc.clear();
  enc.begin(kind).sig(producer.exact).i64(static_cast<int64_t>(i));
  d.exact = sig::hash128(enc.view());
  if (producer.templ == producer.exact) {
    d.templ = d.exact;
  } else {
    enc.clear();
    enc.begin(kind).sig(producer.templ).i64(static_cast<int64_t>(i));
    d.templ = sig::hash128(enc.view());
  }
  return d;
}

void PlanSigner::define_outputs(const LogicalOperator& op, const NodeSignatures& s) {
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
      for (size_t i = 0; i < op.outputs.size(); ++i) define(op.outputs[i], output_digests("union_output", s, i));
      break;
    case LogicalKind::CteRef: {
      auto& r = op.as<LogicalCteRef>();
      for (size_t i = 0; i < r.outputs.size(); ++i) {
        Digests d = lineage_digests(r.producer_columns[i]);
        define(r.outputs[i], d);
      }
      break;
    }
    default: break;
  }
}

const NodeSignatures& PlanSigner::sign(const LogicalOperator& op) {
  Slot& slot = t_->logical.get(op.id);  // stays where it is while the children are signed
  if (slot.valid) return slot.sigs;
  for (auto& c : op.children) sign(*c);
  const LogicalOperator* producer = nullptr;
  if (op.kind == LogicalKind::CteRef) {
    // A reference signs as reading the producer's rows.
    size_t i = static_cast<size_t>(op.as<LogicalCteRef>().cte_index);
    if (i < ctes_.size() && ctes_[i]) {
      producer = ctes_[i];
      sign(*producer);
    }
  }
  sc_ = &scratch();
  // Every input is signed (cached now): collect their signatures without recursing.
  Scratch& sc = *sc_;
  sc.clear_children();
  for (auto& c : op.children) sc.add_child(t_->logical.find(c->id)->sigs);
  if (producer) sc.add_child(t_->logical.find(producer->id)->sigs);
  sign_form(op, logical_kind_name(op.kind), slot.sigs);
  slot.sigs.join_set = join_set(op);
  slot.valid = true;
  define_outputs(op, slot.sigs);
  last_conj_.reset();
  return slot.sigs;
}

std::optional<sig::Signature> PlanSigner::join_set(const LogicalOperator& op) {
  if (!inner_join(op)) return std::nullopt;
  // Children are signed (and their sets recorded) before their parent: this join's set is theirs
  // (an input that is not an inner join is one input) plus its own predicates.
  if (op.id >= t_->join_sets.size()) t_->join_sets.resize(std::max<size_t>(op.id + 1, 2 * t_->join_sets.size()));
  sig::JoinSet set;
  for (auto& c : op.children) {
    if (inner_join(*c) && c->id < t_->join_sets.size() && t_->join_sets[c->id].valid) set.merge(t_->join_sets[c->id].set);
    else set.add_input(t_->logical.find(c->id)->sigs.exact);
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
  t_->join_sets[op.id] = JoinSetSlot{set, true};
  return set.signature();
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
  for (const LogicalOperator* op : inputs) set.add_input(sign(*op).exact);
  t_->join_preds.clear();
  for (const Expr* c : conditions) predicate_digests(*c, t_->join_preds);
  add_predicates(set);
  return set.signature();
}

void PlanSigner::define_outputs(const PhysicalOperator& op, const NodeSignatures& s) {
  // Physical-only columns (partial aggregate states, computed join keys) sign by their producer.
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    ColumnId c = op.outputs[i];
    if (lineage_known(c)) continue;
    if (!ctx_.column(c).base_table.empty()) continue;
    define(c, output_digests("physical_output", s, i));
  }
}

const NodeSignatures& PlanSigner::sign(const PhysicalOperator& op) {
  Slot& slot = t_->physical.get(op.id);  // stays where it is while the children are signed
  if (slot.valid) return slot.sigs;
  for (auto& c : op.children) sign(*c);
  sc_ = &scratch();
  Scratch& sc = *sc_;
  sc.clear_children();
  for (auto& c : op.children) sc.add_child(t_->physical.find(c->id)->sigs);
  sign_form(op, physical_kind_text(op.kind), slot.sigs);
  slot.sigs.join_set.reset();
  slot.valid = true;
  define_outputs(op, slot.sigs);
  last_conj_.reset();
  return slot.sigs;
}

}  // namespace hindsight
