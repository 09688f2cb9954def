// Expression digests and column lineage (docs/signatures.md, "Digests"): every expression node and
// every column is named by a 128-bit digest of its canonical bytes; parents write digests, never
// their children's bytes.
#include <algorithm>
#include <array>
#include <charconv>
#include <type_traits>

#include "planner/signing/expr_normalizer.hpp"
#include "planner/signing/plan_signer_internal.hpp"
#include "signatures/hash128.hpp"

namespace hindsight {

using sig::Signature;
using sig::TokenWriter;
using signing::push;

namespace {

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
[[gnu::always_inline]] inline void write_expr_node(TokenWriter& enc, ExprKind kind, const Expr* e, size_t n, const KidDigest& kid) {
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

}  // namespace

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

[[gnu::always_inline]] inline PlanSigner::Digests PlanSigner::node_digests(ExprKind kind, const Expr* e, size_t base, bool same) {
  std::vector<Digests>& stack = sc_->digest_stack;
  const size_t n = stack.size() - base;
  Digests out;
  TokenWriter& ex = sc_->expr_exact;
  ex.clear();
  write_expr_node(ex, kind, e, n, [&](size_t i) { return stack[base + i].exact; });
  out.exact = sig::hash128(ex.view());
  if (same) {
    out.templ = out.exact;  // identical bytes in template mode: no second pass
  } else {
    TokenWriter& tp = sc_->expr_templ;
    tp.clear();
    write_expr_node(tp, kind, e, n, [&](size_t i) { return stack[base + i].templ; });
    out.templ = sig::hash128(tp.view());
  }
  stack.resize(base);
  return out;
}

PlanSigner::Digests PlanSigner::expr_digests(const Expr& e) {
  // A reference is what it refers to: its digest is the column's lineage (no hash of its own).
  if (e.kind == ExprKind::ColumnRef) return lineage_digests(e.column_id);
  std::vector<Digests>& stack = sc_->digest_stack;
  const size_t base = stack.size();
  bool same = e.kind != ExprKind::Constant;  // exact and template bytes can only differ at a constant
  for (auto& c : e.children) {
    Digests d = expr_digests(*c);
    same = same && d.exact == d.templ;
    push(stack, d);
  }
  return node_digests(e.kind, &e, base, same);
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
    push(last_conj_parts_, d);
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
      push(last_conj_parts_, d);
    }
    return node_digests(ExprKind::And, nullptr, base, same);
  }
  last_conj_ = normalize_for_signature(make_conjunction(conj));
  return expr_digests(*last_conj_);
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

void PlanSigner::define_outputs(const PhysicalOperator& op, const Slot& slot) {
  // Physical-only columns (partial aggregate states, computed join keys) sign by their producer.
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    ColumnId c = op.outputs[i];
    if (lineage_known(c) || base_column(c)) continue;
    define_output(c, op, slot, i);
  }
}

}  // namespace hindsight
