// Join-set signatures (docs/signatures.md, "Join sets"): an inner-join tree's inputs and
// predicates as order-free sums, accumulated join by join from the children's sets; their
// template flavour; and the set of relations the join enumerator asks for before building it.
#include <algorithm>

#include "planner/logical/plan_utils.hpp"
#include "planner/signing/expr_normalizer.hpp"
#include "planner/signing/plan_signer_internal.hpp"
#include "signatures/hash128.hpp"

namespace hindsight {

using sig::Signature;
using signing::inner_join;

[[gnu::always_inline]] inline void PlanSigner::own_predicates(const LogicalJoin& j, bool templ) {
  t_->join_preds.clear();
  const auto& conds = j.conditions;
  if (last_conj_src_ == &conds) {  // digested just now for the node's form: not again
    if (!last_conj_ && last_conj_parts_.size() == conds.size()) {
      // Every condition was already normal (neither AND nor OR): each is one predicate.
      for (const Digests& d : last_conj_parts_) t_->join_preds.push_back(templ ? d.templ : d.exact);
      return;
    }
    if (conds.size() == 1 && last_conj_) {
      split_predicate_digests(*last_conj_, t_->join_preds, templ);
      return;
    }
  }
  for (auto& c : conds) predicate_digests(*c, t_->join_preds, templ);
}

std::optional<sig::Signature> PlanSigner::join_set(const LogicalOperator& op, const Slot& slot) {
  const bool inner = inner_join(op);
  if (!inner && !is_member_join(op)) return std::nullopt;
  // Children are signed (and their sets recorded) before their parent: this join's set is theirs
  // (an input without a set of its own is one input) plus its own predicates; a member join's (semi
  // or LEFT) is its left input's plus the member (its right input is never an input of the set).
  // Predicates are the distinct digests of the children's and its own (not the sum of the children's sums).
  if (op.id >= t_->join_sets.size()) t_->join_sets.resize(std::max<size_t>(op.id + 1, 2 * t_->join_sets.size()));
  const auto& j = op.as<LogicalJoin>();
  sig::JoinSet set;
  const size_t set_children = inner ? 2 : 1;
  const LogicalOperator* with_set[2] = {nullptr, nullptr};
  for (size_t i = 0; i < set_children; ++i) {
    const LogicalOperator& c = *op.children[i];
    if (has_join_set(c)) {
      set.merge_inputs(t_->join_sets[c.id].set);
      with_set[i] = &c;
    } else {
      set.add_input(input_signatures(c, InputRule::Relation, false).exact);  // may sign the input's sub-tree (joins there use join_preds)
    }
  }
  if (inner) own_predicates(j, false);
  else t_->join_preds.clear();
  for (const LogicalOperator* c : with_set)
    if (c) append_set_predicates(t_->join_sets[c->id], false);
  add_predicates(set);
  if (!inner) set.add_member(member_digest(j.type, j.conditions, *op.children[1], false));
  const Signature signature = set.signature();
  JoinSetSlot& js = t_->join_sets[op.id];
  js.set = set;
  keep_set_predicates(js, false);
  js.valid = true;
  js.templ_valid = js.templ_same = false;
  if (slot.templ_valid) {
    if (slot.sigs.templ == slot.sigs.exact) {
      // No constant in the tree: the template set is the exact one.
      js.templ_set = set;
      js.templ_preds = js.preds;
      js.templ_preds_count = js.preds_count;
      js.templ_valid = js.templ_same = true;
    } else {
      template_join_set(op);
    }
  }
  return signature;
}

void PlanSigner::template_join_set(const LogicalOperator& op) {
  // As join_set(), over template inputs and template predicate digests.
  const bool inner = inner_join(op);
  const auto& j = op.as<LogicalJoin>();
  sig::JoinSet set;
  const size_t set_children = inner ? 2 : 1;
  const LogicalOperator* with_set[2] = {nullptr, nullptr};
  for (size_t i = 0; i < set_children; ++i) {
    const LogicalOperator& c = *op.children[i];
    if (has_join_set(c)) {
      set.merge_inputs(t_->join_sets[c.id].templ_set);  // its template is known: so is its set
      with_set[i] = &c;
    } else {
      set.add_input(input_signatures(c, InputRule::Relation, true).templ);  // may sign the input's sub-tree (joins there use join_preds)
    }
  }
  if (inner) own_predicates(j, true);
  else t_->join_preds.clear();
  for (const LogicalOperator* c : with_set)
    if (c) append_set_predicates(t_->join_sets[c->id], true);
  add_predicates(set);
  if (!inner) set.add_member(member_digest(j.type, j.conditions, *op.children[1], true));
  JoinSetSlot& js = t_->join_sets[op.id];
  js.templ_set = set;
  keep_set_predicates(js, true);
  js.templ_valid = true;
  js.templ_same = false;
}

void PlanSigner::append_set_predicates(const JoinSetSlot& child, bool templ) {
  const uint32_t from = templ ? child.templ_preds : child.preds;
  const uint32_t n = templ ? child.templ_preds_count : child.preds_count;
  const auto first = t_->set_preds.begin() + from;
  t_->join_preds.insert(t_->join_preds.end(), first, first + n);
}

void PlanSigner::keep_set_predicates(JoinSetSlot& js, bool templ) {
  const auto from = static_cast<uint32_t>(t_->set_preds.size());
  const auto n = static_cast<uint32_t>(t_->join_preds.size());
  t_->set_preds.insert(t_->set_preds.end(), t_->join_preds.begin(), t_->join_preds.end());
  (templ ? js.templ_preds : js.preds) = from;
  (templ ? js.templ_preds_count : js.preds_count) = n;
}

sig::Signature PlanSigner::member_digest(LogicalJoinType type, const std::vector<ExprPtr>& conditions,
                                         const LogicalOperator& right, bool templ) {
  std::vector<Signature> preds;
  for (auto& c : conditions) predicate_digests(*c, preds, templ);
  const InputSigs r = input_signatures(right, InputRule::Relation, templ);
  return sig::semi_member_signature(join_type_name(type), templ ? r.templ : r.exact, std::move(preds));
}

void PlanSigner::split_predicate_digests(const Expr& e, std::vector<Signature>& out, bool templ) {
  if (e.kind == ExprKind::And) {
    for (auto& c : e.children) split_predicate_digests(*c, out, templ);
    return;
  }
  const Digests d = expr_digests(e);
  out.push_back(templ ? d.templ : d.exact);
}

void PlanSigner::predicate_digests(const Expr& condition, std::vector<sig::Signature>& out, bool templ) {
  if (is_normalized_for_signature(condition)) {
    split_predicate_digests(condition, out, templ);
  } else {
    ExprPtr n = normalize_for_signature(condition);
    split_predicate_digests(*n, out, templ);
  }
}

void PlanSigner::add_predicates(sig::JoinSet& set) {
  std::sort(t_->join_preds.begin(), t_->join_preds.end());
  t_->join_preds.erase(std::unique(t_->join_preds.begin(), t_->join_preds.end()), t_->join_preds.end());
  for (const Signature& p : t_->join_preds) set.add_predicate(p);
}

sig::Signature PlanSigner::join_set_of(const std::vector<const LogicalOperator*>& inputs,
                                       const std::vector<const Expr*>& conditions,
                                       const std::vector<SemiMemberRef>& members) {
  // As join_set(): inputs as relations (an input that has a join set of its own, a LEFT join the
  // enumerator keeps whole, merges it, as its parent's set does), each condition normalized on its
  // own and AND-split, each member as its member join adds it.
  sig::JoinSet set;
  for (const LogicalOperator* op : inputs) {
    if (signed_slot(*op, false).sigs.join_set)
      set.merge(t_->join_sets[op->id].set);
    else
      set.add_input(input_signatures(*op, InputRule::Relation, false).exact);
  }
  for (const SemiMemberRef& m : members) {
    signed_slot(*m.right, false);
    set.add_member(member_digest(m.type, *m.conditions, *m.right, false));
  }
  t_->join_preds.clear();
  for (const Expr* c : conditions) predicate_digests(*c, t_->join_preds, false);
  add_predicates(set);
  return set.signature();
}

}  // namespace hindsight
