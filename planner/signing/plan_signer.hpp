#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "planner/logical/logical_operator.hpp"
#include "planner/physical/physical_operator.hpp"
#include "signatures/signature.hpp"

namespace hindsight {

/// The three signatures of a plan node (DESIGN.md section 3).
struct NodeSignatures {
  sig::Signature exact;                     ///< constants kept
  sig::Signature templ;                     ///< constants replaced by typed placeholders
  std::optional<sig::Signature> join_set;   ///< inner-join trees: same for every order and algorithm
};

/// Computes signatures bottom-up over logical and physical plans, once per node (cached by node
/// id; call forget() for nodes a rewrite replaced). Column references are encoded by lineage:
/// a base column as table.column, a computed column as the canonical form of the expression or
/// aggregate that produced it, so aliases and column ids never matter.
class PlanSigner {
 public:
  explicit PlanSigner(const PlanContext& ctx) : ctx_(ctx) {}

  /// Materialized CTE `index` is produced by `root` (its references sign as reading it).
  void set_cte(int index, const LogicalOperator& root);
  const NodeSignatures& sign(const LogicalOperator& op);
  const NodeSignatures& sign(const PhysicalOperator& op);
  void forget(NodeId id);

  /// Canonical bytes of a column's lineage (exact or template).
  const std::string& lineage(ColumnId id, bool templ);

 private:
  struct Lineage {
    std::string exact, templ;
  };
  std::string encode_expr(const Expr& e, bool templ);
  void encode_expr_into(const Expr& e, bool templ, std::string& out);
  std::string canonical_form(const char* kind, const std::function<void(ParamWriter&)>& write, bool templ);
  void define_outputs(const LogicalOperator& op);
  void define_outputs(const PhysicalOperator& op, const NodeSignatures& sigs);
  std::optional<sig::Signature> join_set(const LogicalOperator& op);

  friend class SignatureParamWriter;
  const PlanContext& ctx_;
  std::map<NodeId, NodeSignatures> logical_, physical_;
  std::map<ColumnId, Lineage> lineage_;
  std::map<int, const LogicalOperator*> ctes_;
  /// Inputs and predicate forms of the inner-join tree under each inner join (built from the
  /// children's, so each predicate is encoded once).
  struct JoinSetParts {
    std::vector<sig::Signature> inputs;
    std::vector<std::string> preds;
  };
  std::map<NodeId, JoinSetParts> join_parts_;
};

}  // namespace hindsight
