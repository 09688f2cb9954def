// Template signatures (docs/signatures.md, "Templates"): computed when first asked for, bottom-up
// over the children's templates, for a node signed without one; and the template digests of
// output columns left pending until then.
#include <type_traits>

#include "planner/signing/plan_signer_internal.hpp"
#include "signatures/hash128.hpp"

namespace hindsight {

using sig::Signature;
using signing::inner_join;

template <class Op>
void PlanSigner::sign_template_of(const Op& op, Slot& slot) {
  for (auto& c : op.children) signed_slot(*c, true);
  const Op* producer = producer_of(op);
  if (producer) signed_slot(*producer, true);
  sc_ = &scratch(depth_);
  Scratch& sc = *sc_;
  sc.templ_children.clear();
  const InputRule rule = input_rule(op);
  for (auto& c : op.children) sc.templ_children.push_back(input_signatures(*c, rule, true).templ);
  if (producer) sc.templ_children.push_back(input_signatures(*producer, rule, true).templ);
  slot.sigs.templ = template_form_signature(op, signing::kind_text(op));
  slot.templ_valid = true;
  if constexpr (std::is_same_v<Op, LogicalOperator>)
    if (slot.sigs.join_set) template_join_set(op);  // an inner join or a member join (semi or LEFT)
  last_conj_.reset();
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

void PlanSigner::resolve_template(ColumnId id) {
  const PendingLineage p = t_->pending[t_->lineage[id].pending - 1];
  // This may run while another node's form or an expression is being written: the producer is
  // signed with the next depth's scratch, and the caches of the node being signed are put back.
  Scratch* const sc = sc_;
  const std::vector<ExprPtr>* const conj_src = last_conj_src_;
  ExprPtr conj = std::move(last_conj_);
  std::vector<Digests> conj_parts = std::move(last_conj_parts_);
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

template void PlanSigner::sign_template_of(const LogicalOperator&, Slot&);
template void PlanSigner::sign_template_of(const PhysicalOperator&, Slot&);

}  // namespace hindsight
