#pragma once
// Internal to the plan signer's files (planner/signing/plan_signer*.cpp): the per-thread scratch
// buffers, small helpers and the node form writer. Not an API.
#include <string_view>
#include <vector>

#include "mapper/append.hpp"
#include "planner/signing/plan_signer.hpp"
#include "signatures/token_writer.hpp"

namespace hindsight {

struct PlanSigner::Scratch {
  sig::TokenWriter form;  // node forms (no constants: mode unused)
  sig::TokenWriter expr_exact{sig::TokenWriter::Mode::Exact};
  sig::TokenWriter expr_templ{sig::TokenWriter::Mode::Template};
  sig::TokenWriter aux;               // output lineages, aggregate outputs
  sig::TokenWriter lineage;           // base / unknown column lineages
  std::vector<Digests> digest_stack;  // children digests of the expression nodes being digested
  std::vector<Digests> tape;          // digests written into the exact form, replayed for the template form
  std::vector<sig::Signature> exact_children, templ_children;
};

inline PlanSigner::Scratch& PlanSigner::scratch(size_t depth) {
  if (depth == 0 && top_scratch_) [[likely]]
    return *top_scratch_;
  return scratch_slow(depth);
}

namespace signing {

/// v.push_back(x) with the reallocation out of line (the mapper's helper for the same purpose):
/// digest stacks grow by a few per expression node and almost never reallocate once warm.
template <class T>
[[gnu::always_inline]] inline void push(std::vector<T>& v, const T& x) {
  mapper::detail::append(v, x);
}

inline bool inner_join(const LogicalOperator& o) {
  return o.kind == LogicalKind::Join && static_cast<const LogicalJoin&>(o).type == LogicalJoinType::Inner;
}

/// The kind a node's form begins with: the logical kind name, or "physical:<operator name>".
std::string_view kind_text(const LogicalOperator& op);
std::string_view kind_text(const PhysicalOperator& op);

}  // namespace signing

inline bool PlanSigner::has_join_set(const LogicalOperator& op) const {
  const Slot* s = t_->logical.find(op.id);
  return s && s->valid && s->sigs.join_set.has_value();
}

inline PlanSigner::InputRule PlanSigner::input_rule(const LogicalOperator& parent) {
  if (parent.kind == LogicalKind::UnionAll) return InputRule::Positional;
  return signing::inner_join(parent) ? InputRule::JoinTree : InputRule::Relation;
}

inline PlanSigner::InputRule PlanSigner::input_rule(const PhysicalOperator& parent) {
  return parent.kind == PhysicalOpKind::UnionAll ? InputRule::Positional : InputRule::JoinTree;
}

[[gnu::always_inline]] inline PlanSigner::InputSigs PlanSigner::input_signatures(const LogicalOperator& c,
                                                                                 InputRule rule, bool templ) {
  const LogicalOperator* n = &c;
  // A projection changes no row: what a parent computes over its columns is named by their
  // lineage, which already holds the projected expressions.
  if (rule != InputRule::Positional)
    while (n->kind == LogicalKind::Project) n = n->children[0].get();
  const Slot& s = *t_->logical.find(n->id);
  InputSigs out;
  if (rule == InputRule::Relation && s.sigs.join_set) {  // an inner-join tree, semi members included
    const JoinSetSlot& js = t_->join_sets[n->id];
    out.exact = *s.sigs.join_set;
    out.same = js.templ_valid && js.templ_same;
    if (templ) out.templ = js.templ_same ? out.exact : js.templ_set.signature();
    return out;
  }
  out.exact = s.sigs.exact;
  out.same = s.templ_valid && s.sigs.templ == s.sigs.exact;
  if (templ) out.templ = s.sigs.templ;
  return out;
}

[[gnu::always_inline]] inline PlanSigner::InputSigs PlanSigner::input_signatures(const PhysicalOperator& c,
                                                                                 InputRule rule, bool templ) {
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
  SignatureParamWriter(PlanSigner& s, sig::TokenWriter& enc, Pass pass) : s_(s), enc_(enc), pass_(pass) {}

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
    if (ordered)
      enc_.end_list(start);
    else
      enc_.end_set(start, sig::TokenWriter::kSigToken);
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
      sig::Signature a = lineage(left[i]);
      sig::Signature b = lineage(right[i]);
      if (b < a) std::swap(a, b);
      const size_t item = enc_.begin_list();
      enc_.sig(a).sig(b).end_list(item);
    }
    enc_.end_set(set, sig::TokenWriter::kSigPairToken);
  }
  void display(std::string_view, std::string_view) override {}
  bool wants_display() const override { return false; }

  /// One aggregate call as a list: kind, distinct, argument lineage (null for COUNT(*)).
  void aggregate(const AggregateCall& a) {
    const size_t list = enc_.begin_list();
    enc_.str(agg_kind_name(a.kind)).boolean(a.distinct);
    if (a.arg == kInvalidColumn)
      enc_.null();
    else
      enc_.sig(lineage(a.arg));
    enc_.end_list(list);
  }

 private:
  /// The digest this pass writes of what `compute` gives (both digests).
  template <class Compute>
  sig::Signature put(Compute compute) {
    switch (pass_) {
      case Pass::Replay:
        return s_.sc_->tape[pos_++].templ;
      case Pass::Template:
        return compute().templ;
      case Pass::Record: {
        const PlanSigner::Digests d = compute();
        differs_ = differs_ || d.exact != d.templ;
        s_.sc_->tape.push_back(d);
        return d.exact;
      }
      case Pass::Exact:
        break;
    }
    const PlanSigner::Digests d = compute();
    differs_ = differs_ || d.exact != d.templ;
    return d.exact;
  }
  sig::Signature lineage(ColumnId c) {
    if (pass_ != Pass::Exact) return put([&] { return s_.lineage_digests(c); });
    // A pending template digest is one whose producer's template differs from its exact signature:
    // so does the digest (the exact pass need not compute it).
    const PlanSigner::LineageSlot& slot = s_.known_lineage_slot(c);
    differs_ = differs_ || slot.pending != 0 || slot.d.exact != slot.d.templ;
    return slot.d.exact;
  }

  PlanSigner& s_;
  sig::TokenWriter& enc_;
  const Pass pass_;
  bool differs_ = false;
  size_t pos_ = 0;
};

}  // namespace hindsight
