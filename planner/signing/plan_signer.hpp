#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/logical/logical_operator.hpp"
#include "planner/physical/physical_operator.hpp"
#include "signatures/hash128.hpp"
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
/// a base column by table.column, a computed column by the expression or aggregate that produced
/// it, so aliases and column ids never matter.
///
/// Encoding (SIGNATURE_VERSION 4): every expression node and every column lineage is named by a
/// 128-bit digest, sig::hash128 of its canonical bytes, and a parent writes its children's digests
/// (CanonicalEncoder::sig) instead of copying their bytes; unordered operands (AND/OR operands,
/// IN lists, commutative operands, join key pairs) are sets or sorted by digest. Digests:
///   base column      H(begin("column") str(table) str(column))
///   other column     H(begin("unknown_column") str(name) str(type))
///   column ref       the column's lineage digest (since version 4: a reference is what it refers
///                      to, so a renamed or projected-through column reads as its origin)
///   constant         H(constant(type tag, value))               (a typed placeholder in template mode)
///   call             H(begin("call") str(op) str(type) list(sig(child)...))   (commutative: sorted;
///                      a > b and a >= b are written as b < a and b <= a)
///   and / or         H(begin("and"|"or") set(sig(child)...))
///   in / not_in      H(begin("in"|"not_in") sig(child0) set(sig(value)...))
///   other kinds      H(begin(kind) boolean(negated) boolean(has_else) str(type) list(sig(child)...))
///   project output   the digest of its (normalized) expression
///   aggregate output H(begin("aggregate_output") field("groups") set(sig(lineage)...)
///                      field("aggregate") list(list(str(kind) boolean(distinct) sig(lineage)|null)))
///   union output i   H(begin("union_output") sig(union node signature) i64(i))
///   physical-only i  H(begin("physical_output") sig(producer node signature) i64(i)), for an output
///                    column of a physical node whose lineage is not known yet: sign the logical plan
///                    first (as compile_query does), or the physical signatures differ
/// A node's form = begin(kind) + its parameters (ParamWriter) with expressions and columns as
/// digests (the exact form with exact digests, the template form with template digests), in the
/// CanonicalEncoder format written by sig::TokenWriter. Each
/// expression is normalized and digested once for both; the template form is written only when
/// one of its digests differs from the exact one (otherwise the bytes are the same). Join-set
/// signatures are sig::JoinSet sums over the exact signatures of the inputs and the exact digests
/// of the normalized join predicates (each join's own predicates de-duplicated), accumulated join
/// by join from the children's sets.
class PlanSigner {
 public:
  explicit PlanSigner(const PlanContext& ctx);
  ~PlanSigner();
  PlanSigner(const PlanSigner&) = delete;
  PlanSigner& operator=(const PlanSigner&) = delete;
  PlanSigner(PlanSigner&&) = default;  // references from sign() stay valid: slots do not move

  /// Materialized CTE `index` is produced by `root` (its references sign as reading it).
  void set_cte(int index, const LogicalOperator& root);
  /// The returned reference stays valid for the signer's lifetime (until forget(op.id)).
  const NodeSignatures& sign(const LogicalOperator& op);
  const NodeSignatures& sign(const PhysicalOperator& op);
  void forget(NodeId id);

  /// The join-set signature that an inner-join tree over `inputs` (none of them an inner join)
  /// applying `conditions` would have, whatever its order and algorithm: what sign() gives the
  /// root of such a tree. Lets the join enumerator look up sets of relations it has not built.
  sig::Signature join_set_of(const std::vector<const LogicalOperator*>& inputs,
                             const std::vector<const Expr*>& conditions);

  /// Lineage digest of a column (exact or template).
  sig::Signature lineage(ColumnId id, bool templ);
  /// Digest of an expression as plan nodes encode it (normalized; exact or template).
  sig::Signature expr_signature(const Expr& e, bool templ);

 private:
  friend class SignatureParamWriter;

  struct Digests {
    sig::Signature exact, templ;
  };
  struct Slot {
    NodeSignatures sigs;
    bool valid = false;
  };
  /// Node id -> slot: an index by id, slots allocated in small chunks as nodes are signed (O(1)
  /// lookup; addresses stay put as it grows, so sign() can return references).
  class SlotTable {
   public:
    Slot* find(NodeId id) { return id < index_.size() && index_[id] ? at(index_[id] - 1) : nullptr; }
    Slot& get(NodeId id);
    /// Empties the table, keeping its memory.
    void reset();
    /// Makes room for node ids below n.
    void presize(size_t n) {
      if (index_.size() < n) index_.resize(n, 0);
    }

   private:
    static constexpr uint32_t kChunk = 16;
    Slot* at(uint32_t k) { return &chunks_[k / kChunk][k % kChunk]; }
    std::vector<uint32_t> index_;  // by node id: 1 + slot number, 0 = none
    std::vector<std::unique_ptr<Slot[]>> chunks_;
    uint32_t count_ = 0;
  };
  struct LineageSlot {
    Digests d;
    bool known = false;
  };
  /// The join set of the inner-join tree under an inner join, accumulated from its children's (each
  /// predicate is digested once, at the join that applies it).
  struct JoinSetSlot {
    sig::JoinSet set;
    bool valid = false;
  };

  /// Reused buffers (encoders, digest stacks), one set per thread: signing allocates nothing per
  /// node once they have grown, and a new signer (one per estimate() of the cardinality model)
  /// starts warm. Never used across a call out of the signer.
  struct Scratch;
  static Scratch& scratch();

  const Digests& lineage_digests(ColumnId id);
  /// The slot of column id (unknown until defined); valid until a column added to the context after
  /// the signer was made is looked up (the table then grows).
  LineageSlot& lineage_slot(ColumnId id);
  bool lineage_known(ColumnId id) const { return id < t_->lineage.size() && t_->lineage[id].known; }
  void define(ColumnId id, const Digests& d);
  /// Digests of an expression as it is (already normalized).
  Digests expr_digests(const Expr& e);
  /// Digests of an expression after normalize_for_signature.
  Digests normalized_expr_digests(const Expr& e);
  /// Digests of the conjunction of `conj` after normalization (the whole conjunction normalized
  /// as one expression); remembers what the join set needs.
  Digests conjunction_digests(const std::vector<ExprPtr>& conj);
  void split_predicate_digests(const Expr& e, std::vector<sig::Signature>& out);
  /// Exact digests of one join condition's predicates (normalized, AND-split), appended to out.
  void predicate_digests(const Expr& condition, std::vector<sig::Signature>& out);
  /// Adds the join predicates in t_->join_preds to set, each distinct digest once.
  void add_predicates(sig::JoinSet& set);
  /// Exact and template signature of a node: its form (kind + parameters) over the children's
  /// signatures in sc_->exact_children / templ_children.
  template <class Op>
  void sign_form(const Op& op, std::string_view kind, NodeSignatures& out);
  Digests aggregate_output_digests(const LogicalAggregate& a, size_t i);
  Digests output_digests(std::string_view kind, const NodeSignatures& producer, size_t i);
  void define_outputs(const LogicalOperator& op, const NodeSignatures& sigs);
  void define_outputs(const PhysicalOperator& op, const NodeSignatures& sigs);
  std::optional<sig::Signature> join_set(const LogicalOperator& op);

  /// What a signer knows, by node and column id; pooled per thread (acquire_tables).
  struct Tables {
    SlotTable logical, physical;
    /// By column id, sized to the context's columns when the signer is made: one zero fill instead
    /// of an index probe and a slot per column touched.
    std::vector<LineageSlot> lineage;
    std::vector<JoinSetSlot> join_sets;       // by node id
    std::vector<sig::Signature> join_preds;   // scratch: one join's own predicate digests
    void reset();
  };
  static std::unique_ptr<Tables> acquire_tables();
  static std::vector<std::unique_ptr<Tables>>* tables_pool();

  const PlanContext& ctx_;
  std::unique_ptr<Tables> t_;
  std::vector<const LogicalOperator*> ctes_;  // by cte index
  Scratch* sc_ = nullptr;                    // this thread's scratch, set by each sign()

  // What the last conjuncts()/exprs() call of the node being signed computed, for define_outputs
  // and join_set (which would otherwise normalize the same expressions again).
  const std::vector<ExprPtr>* last_conj_src_ = nullptr;
  ExprPtr last_conj_;                            // the normalized conjunction, if it had to be built
  std::vector<sig::Signature> last_conj_parts_;  // else: exact digests of the (already normal) conjuncts
  const std::vector<ExprPtr>* last_exprs_src_ = nullptr;
  std::vector<Digests> last_exprs_;
};

}  // namespace hindsight
