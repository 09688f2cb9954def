#include "planner/signing/plan_signer.hpp"

#include <algorithm>

#include "planner/signing/expr_normalizer.hpp"
#include "signatures/canonical_encoder.hpp"
#include "signatures/hash128.hpp"

namespace hindsight {

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

bool commutative(ScalarOp op) { return op == ScalarOp::Add || op == ScalarOp::Mul || op == ScalarOp::Eq || op == ScalarOp::Ne; }

}  // namespace

/// Writes parameters as canonical bytes; expressions normalized and encoded by lineage.
class SignatureParamWriter : public ParamWriter {
 public:
  SignatureParamWriter(PlanSigner& s, sig::CanonicalEncoder& enc, bool templ) : s_(s), enc_(enc), templ_(templ) {}
  void text(std::string_view key, std::string_view value) override { enc_.field(key).str(value); }
  void number(std::string_view key, int64_t value) override { enc_.field(key).i64(value); }
  void conjuncts(std::string_view key, const std::vector<ExprPtr>& conj) override {
    // The conjunction is normalized as one expression (absorption works across conjuncts).
    enc_.field(key);
    if (conj.empty()) {
      enc_.boolean(true);
      return;
    }
    ExprPtr all = make_conjunction(conj);
    enc_.str(s_.encode_expr(*all, templ_));
  }
  void exprs(std::string_view key, const std::vector<ExprPtr>& list) override {
    enc_.field(key).begin_list();
    for (auto& e : list) enc_.str(s_.encode_expr(*e, templ_));
    enc_.end_list();
  }
  void columns(std::string_view key, const std::vector<ColumnId>& ids, bool ordered) override {
    enc_.field(key);
    ordered ? enc_.begin_list() : enc_.begin_set();
    for (ColumnId c : ids) enc_.str(s_.lineage(c, templ_));
    ordered ? enc_.end_list() : enc_.end_set();
  }
  void sort_keys(std::string_view key, const std::vector<SortKeyRef>& keys) override {
    enc_.field(key).begin_list();
    for (auto& k : keys) enc_.begin_list().str(s_.lineage(k.column, templ_)).boolean(k.ascending).boolean(k.nulls_first).end_list();
    enc_.end_list();
  }
  void aggregates(std::string_view key, const std::vector<AggregateCall>& aggs) override {
    enc_.field(key).begin_list();
    for (auto& a : aggs) {
      enc_.begin_list().str(agg_kind_name(a.kind)).boolean(a.distinct);
      if (a.arg == kInvalidColumn) enc_.null();
      else enc_.str(s_.lineage(a.arg, templ_));
      enc_.end_list();
    }
    enc_.end_list();
  }
  void key_pairs(std::string_view key, const std::vector<ColumnId>& left, const std::vector<ColumnId>& right) override {
    enc_.field(key).begin_set();
    for (size_t i = 0; i < left.size(); ++i) {
      std::string a = s_.lineage(left[i], templ_), b = s_.lineage(right[i], templ_);
      if (b < a) std::swap(a, b);
      enc_.begin_list().str(a).str(b).end_list();
    }
    enc_.end_set();
  }
  void display(std::string_view, std::string_view) override {}

 private:
  PlanSigner& s_;
  sig::CanonicalEncoder& enc_;
  bool templ_;
};

void PlanSigner::set_cte(int index, const LogicalOperator& root) { ctes_[index] = &root; }

void PlanSigner::forget(NodeId id) {
  join_parts_.erase(id);
  logical_.erase(id);
  physical_.erase(id);
}

const std::string& PlanSigner::lineage(ColumnId id, bool templ) {
  auto it = lineage_.find(id);
  if (it == lineage_.end()) {
    // Columns not produced by a signed node (base columns, or outer references) sign by their origin.
    const ColumnInfo& c = ctx_.column(id);
    sig::CanonicalEncoder enc;
    if (!c.base_table.empty()) enc.begin("column").str(c.base_table).str(c.base_column);
    else enc.begin("unknown_column").str(c.name).str(c.type.to_string());
    it = lineage_.emplace(id, Lineage{enc.bytes(), enc.bytes()}).first;
  }
  return templ ? it->second.templ : it->second.exact;
}

std::string PlanSigner::encode_expr(const Expr& e, bool templ) {
  ExprPtr n = normalize_for_signature(e);
  std::string out;
  encode_expr_into(*n, templ, out);
  return out;
}

void PlanSigner::encode_expr_into(const Expr& e, bool templ, std::string& out) {
  sig::CanonicalEncoder enc(templ ? sig::CanonicalEncoder::Mode::Template : sig::CanonicalEncoder::Mode::Exact);
  auto child = [&](const Expr& c) {
    std::string b;
    encode_expr_into(c, templ, b);
    return b;
  };
  switch (e.kind) {
    case ExprKind::ColumnRef: enc.begin("ref").str(lineage(e.column_id, templ)); break;
    case ExprKind::Constant: {
      const Value& v = e.value;
      const char* tag = type_tag(e.type);
      if (v.is_null) enc.constant_null(tag);
      else if (e.type.physical() == PhysicalKind::Double) enc.constant_f64(tag, v.d);
      else if (e.type.physical() == PhysicalKind::String) enc.constant_str(tag, v.s);
      // DECIMAL constants are encoded by value, not by scaled integer: 0.5 and 0.50 are equal.
      else if (e.type.id == TypeId::Decimal) enc.constant_f64(tag, v.as_double());
      else enc.constant_i64(tag, v.i);
      break;
    }
    case ExprKind::Call: {
      enc.begin("call").str(scalar_op_name(e.op)).str(e.type.to_string());
      if (commutative(e.op) && e.children.size() == 2) {
        std::string a = child(*e.children[0]), b = child(*e.children[1]);
        if (b < a) std::swap(a, b);
        enc.begin_list().str(a).str(b).end_list();
      } else {
        enc.begin_list();
        for (auto& c : e.children) enc.str(child(*c));
        enc.end_list();
      }
      break;
    }
    case ExprKind::And:
    case ExprKind::Or:
      enc.begin(e.kind == ExprKind::And ? "and" : "or").begin_set();
      for (auto& c : e.children) enc.str(child(*c));
      enc.end_set();
      break;
    case ExprKind::InList:
      enc.begin(e.negated ? "not_in" : "in").str(child(*e.children[0])).begin_set();
      for (size_t i = 1; i < e.children.size(); ++i) enc.str(child(*e.children[i]));
      enc.end_set();
      break;
    default: {
      static const char* names[] = {"ref", "const", "call", "case", "cast", "in", "like", "is_null", "not", "and", "or"};
      enc.begin(names[static_cast<int>(e.kind)]).boolean(e.negated).boolean(e.has_else).str(e.type.to_string()).begin_list();
      for (auto& c : e.children) enc.str(child(*c));
      enc.end_list();
    }
  }
  out = enc.bytes();
}

std::string PlanSigner::canonical_form(const char* kind, const std::function<void(ParamWriter&)>& write, bool templ) {
  sig::CanonicalEncoder enc(templ ? sig::CanonicalEncoder::Mode::Template : sig::CanonicalEncoder::Mode::Exact);
  enc.begin(kind);
  SignatureParamWriter w(*this, enc, templ);
  write(w);
  return enc.bytes();
}

void PlanSigner::define_outputs(const LogicalOperator& op) {
  auto define = [&](ColumnId id, std::string exact, std::string templ) {
    lineage_[id] = Lineage{std::move(exact), std::move(templ)};
  };
  switch (op.kind) {
    case LogicalKind::Project: {
      auto& p = op.as<LogicalProject>();
      for (size_t i = 0; i < p.exprs.size(); ++i)
        if (!(p.exprs[i]->kind == ExprKind::ColumnRef && p.exprs[i]->column_id == p.outputs[i]))
          define(p.outputs[i], encode_expr(*p.exprs[i], false), encode_expr(*p.exprs[i], true));
      break;
    }
    case LogicalKind::Aggregate: {
      auto& a = op.as<LogicalAggregate>();
      for (size_t i = 0; i < a.aggs.size(); ++i) {
        std::string e = canonical_form("aggregate_output", [&](ParamWriter& w) {
          w.columns("groups", a.groups, false);
          w.aggregates("aggregate", {a.aggs[i]});
        }, false);
        std::string t = canonical_form("aggregate_output", [&](ParamWriter& w) {
          w.columns("groups", a.groups, false);
          w.aggregates("aggregate", {a.aggs[i]});
        }, true);
        define(a.outputs[a.groups.size() + i], e, t);
      }
      break;
    }
    case LogicalKind::UnionAll:
      for (size_t i = 0; i < op.outputs.size(); ++i) {
        const NodeSignatures& s = logical_.at(op.id);
        define(op.outputs[i], "union:" + s.exact.hex() + ":" + std::to_string(i), "union:" + s.templ.hex() + ":" + std::to_string(i));
      }
      break;
    case LogicalKind::CteRef: {
      auto& r = op.as<LogicalCteRef>();
      for (size_t i = 0; i < r.outputs.size(); ++i)
        define(r.outputs[i], lineage(r.producer_columns[i], false), lineage(r.producer_columns[i], true));
      break;
    }
    default: break;
  }
}

const NodeSignatures& PlanSigner::sign(const LogicalOperator& op) {
  if (auto it = logical_.find(op.id); it != logical_.end()) return it->second;
  std::vector<sig::Signature> exact_children, templ_children;
  for (auto& c : op.children) {
    const NodeSignatures& cs = sign(*c);
    exact_children.push_back(cs.exact);
    templ_children.push_back(cs.templ);
  }
  if (op.kind == LogicalKind::CteRef) {
    // A reference signs as reading the producer's rows.
    auto it = ctes_.find(op.as<LogicalCteRef>().cte_index);
    if (it != ctes_.end()) {
      const NodeSignatures& ps = sign(*it->second);
      exact_children.push_back(ps.exact);
      templ_children.push_back(ps.templ);
    }
  }
  auto write = [&](ParamWriter& w) { op.write_params(w); };
  NodeSignatures s;
  s.exact = sig::tree_signature(canonical_form(logical_kind_name(op.kind), write, false), exact_children);
  s.templ = sig::tree_signature(canonical_form(logical_kind_name(op.kind), write, true), templ_children);
  logical_[op.id] = s;
  logical_[op.id].join_set = join_set(op);
  define_outputs(op);
  return logical_.at(op.id);
}

std::optional<sig::Signature> PlanSigner::join_set(const LogicalOperator& op) {
  auto inner = [](const LogicalOperator& o) {
    return o.kind == LogicalKind::Join && o.as<LogicalJoin>().type == LogicalJoinType::Inner;
  };
  if (!inner(op)) return std::nullopt;
  // Children are signed (and their parts recorded) before their parent.
  JoinSetParts parts;
  for (auto& c : op.children) {
    auto it = join_parts_.find(c->id);
    if (inner(*c) && it != join_parts_.end()) {
      parts.inputs.insert(parts.inputs.end(), it->second.inputs.begin(), it->second.inputs.end());
      parts.preds.insert(parts.preds.end(), it->second.preds.begin(), it->second.preds.end());
    } else {
      parts.inputs.push_back(sign(*c).exact);
    }
  }
  for (auto& c : op.as<LogicalJoin>().conditions) {
    std::vector<ExprPtr> conj;
    split_conjuncts(normalize_for_signature(*c), conj);
    for (auto& p : conj) parts.preds.push_back(encode_expr(*p, false));
  }
  auto s = sig::join_set_signature(parts.inputs, parts.preds);
  join_parts_[op.id] = std::move(parts);
  return s;
}

void PlanSigner::define_outputs(const PhysicalOperator& op, const NodeSignatures& s) {
  // Physical-only columns (partial aggregate states, computed join keys) sign by their producer.
  for (size_t i = 0; i < op.outputs.size(); ++i)
    if (!lineage_.count(op.outputs[i]) && ctx_.column(op.outputs[i]).base_table.empty()) {
      std::string tag = "physical:" + s.exact.hex() + ":" + std::to_string(i);
      lineage_[op.outputs[i]] = Lineage{tag, "physical:" + s.templ.hex() + ":" + std::to_string(i)};
    }
}

const NodeSignatures& PlanSigner::sign(const PhysicalOperator& op) {
  if (auto it = physical_.find(op.id); it != physical_.end()) return it->second;
  std::vector<sig::Signature> exact_children, templ_children;
  for (auto& c : op.children) {
    const NodeSignatures& cs = sign(*c);
    exact_children.push_back(cs.exact);
    templ_children.push_back(cs.templ);
  }
  auto write = [&](ParamWriter& w) { op.write_params(w); };
  std::string kind = std::string("physical:") + physical_op_name(op.kind);
  NodeSignatures s;
  s.exact = sig::tree_signature(canonical_form(kind.c_str(), write, false), exact_children);
  s.templ = sig::tree_signature(canonical_form(kind.c_str(), write, true), templ_children);
  physical_[op.id] = s;
  define_outputs(op, s);
  return physical_.at(op.id);
}

}  // namespace hindsight
