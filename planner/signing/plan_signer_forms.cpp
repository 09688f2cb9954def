// The node form writer (docs/signatures.md, "Node forms"): an operator's kind and semantic
// parameters, with expressions and columns as digests, hashed with its inputs' signatures.
#include <type_traits>

#include "planner/signing/plan_signer_internal.hpp"
#include "signatures/hash128.hpp"

namespace hindsight {

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
    slot.sigs.templ =
        children_same ? slot.sigs.exact : sig::tree_signature_in_place(sc.form.bytes(), sc.templ_children);
    return;
  }
  sc.form.clear_reserving(sig::kTreeHeaderBytes);
  sc.form.begin(kind);
  SignatureParamWriter replay(*this, sc.form, SignatureParamWriter::Pass::Replay);
  op.write_params(replay);
  slot.sigs.templ = sig::tree_signature_in_place(sc.form.bytes(), sc.templ_children);
}

template void PlanSigner::sign_form(const LogicalOperator&, std::string_view, Slot&, bool, bool);
template void PlanSigner::sign_form(const PhysicalOperator&, std::string_view, Slot&, bool, bool);

}  // namespace hindsight
