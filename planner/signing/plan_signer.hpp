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

/// The signatures the mapper links: exact and (inner joins) join-set.
struct ExactSignatures {
  sig::Signature exact;
  std::optional<sig::Signature> join_set;
};

/// Computes signatures bottom-up over logical and physical plans, once per node (cached by node
/// id; call forget() for nodes a rewrite replaced). Column references are encoded by lineage:
/// a base column by table.column, a computed column by the expression or aggregate that produced
/// it, so aliases and column ids never matter.
///
/// Exact and join-set signatures are computed by either call; a template signature that differs
/// from the exact one (a constant in the node or below it) is computed when sign() first asks for
/// it, bottom-up over the children's templates, and cached like the others. Compilation and the
/// mapper only need sign_exact(); EXPLAIN, stats look-ups and the stats store call sign(). Either
/// way a node's three signatures are the same values.
///
/// What each signature is made of (digests, node forms, what a parent writes for each input, templates,
/// join sets) is specified in docs/signatures.md (SIGNATURE_VERSION 7), which also maps the concepts to
/// the plan_signer_*.cpp files that implement them.
class PlanSigner {
 public:
  explicit PlanSigner(const PlanContext& ctx);
  ~PlanSigner();
  PlanSigner(const PlanSigner&) = delete;
  PlanSigner& operator=(const PlanSigner&) = delete;
  PlanSigner(PlanSigner&&) = default;  // references from sign() stay valid: slots do not move

  /// Materialized CTE `index` is produced by `root` (its references sign as reading it).
  void set_cte(int index, const LogicalOperator& root);
  /// All three signatures. The returned reference stays valid for the signer's lifetime (until
  /// forget(op.id)).
  const NodeSignatures& sign(const LogicalOperator& op);
  const NodeSignatures& sign(const PhysicalOperator& op);
  /// Exact and join-set signatures only (physical nodes have no join set), without computing a
  /// template that differs from the exact signature: what compilation and the mapper need.
  ExactSignatures sign_exact(const LogicalOperator& op) {
    const Slot* s = t_->logical.find(op.id);
    if (!s || !s->valid) s = &signed_slot(op, false);
    return ExactSignatures{s->sigs.exact, s->sigs.join_set};
  }
  ExactSignatures sign_exact(const PhysicalOperator& op) {
    const Slot* s = t_->physical.find(op.id);
    if (!s || !s->valid) s = &signed_slot(op, false);
    return ExactSignatures{s->sigs.exact, std::nullopt};
  }
  void forget(NodeId id);

  /// A member of a join set: a semi, anti, null-aware anti or LEFT join (its type and conditions)
  /// over its right input.
  struct SemiMemberRef {
    LogicalJoinType type;
    const std::vector<ExprPtr>* conditions;
    const LogicalOperator* right;
  };
  /// The join-set signature that a tree of inner joins over `inputs` (none of them an inner join)
  /// applying `conditions`, with the semi joins `members` inside it, would have, whatever its order
  /// and algorithm: what sign() gives the root of such a tree. Lets the join enumerator look up
  /// sets of relations it has not built. An input with a join set of its own (a LEFT member join
  /// the enumerator keeps whole) is merged, as an inner join over it merges it.
  sig::Signature join_set_of(const std::vector<const LogicalOperator*>& inputs,
                             const std::vector<const Expr*>& conditions,
                             const std::vector<SemiMemberRef>& members = {});

  /// Lineage digest of a column (exact or template).
  sig::Signature lineage(ColumnId id, bool templ);
  /// Digest of an expression as plan nodes encode it (normalized; exact or template).
  sig::Signature expr_signature(const Expr& e, bool templ);

 private:
  friend class SignatureParamWriter;  // the node form writer (plan_signer_internal.hpp)

  struct Digests {
    sig::Signature exact, templ;
  };

  // ---- Core: slots, scratch, the walk, inputs (plan_signer.cpp) ----

  struct Slot {
    NodeSignatures sigs;
    bool valid = false;        // exact and join_set computed
    bool templ_valid = false;  // templ computed (set with valid when it equals exact)
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

  /// Reused buffers (encoders, digest stacks), one set per thread and nesting depth: signing
  /// allocates nothing per node once they have grown, and a new signer (one per estimate() of the
  /// cardinality model) starts warm. Never used across a call out of the signer. Depth 0 serves all
  /// signing but a producer's template computed while another node's form is being written
  /// (resolve_template), which uses the next depth's.
  struct Scratch;
  static inline Scratch& scratch(size_t depth);  // defined in plan_signer_internal.hpp
  static Scratch& scratch_slow(size_t depth);
  static constinit thread_local Scratch* top_scratch_;  // this thread's depth-0 scratch, once made

  /// The slot of a signed node, its children signed first: exact signature and join set, and the
  /// template when `templ` or when it is the exact signature.
  Slot& signed_slot(const LogicalOperator& op, bool templ);
  Slot& signed_slot(const PhysicalOperator& op, bool templ);
  template <class Op>
  Slot& signed_slot_of(const Op& op, bool templ);
  /// The plan a CTE reference reads (its last input), else nullptr.
  const LogicalOperator* producer_of(const LogicalOperator& op) const;
  static const PhysicalOperator* producer_of(const PhysicalOperator&) { return nullptr; }

  /// What a parent writes for one input (docs/signatures.md, "Inputs"): a positional parent (union)
  /// the input's own signature; an inner join the signature of the input seen through projections;
  /// any other parent the same, but an inner-join tree by its join-set signature.
  enum class InputRule : uint8_t { Positional, JoinTree, Relation };
  struct InputSigs {
    sig::Signature exact, templ;  // templ only when asked for
    bool same = false;            // the template is known and equals the exact signature
  };
  static inline InputRule input_rule(const LogicalOperator& parent);  // inline: plan_signer_internal.hpp
  static inline InputRule input_rule(const PhysicalOperator& parent);
  /// The signatures a parent under `rule` writes for its input `c` (signed already; its template
  /// too if `templ`).
  inline InputSigs input_signatures(const LogicalOperator& c, InputRule rule, bool templ);
  inline InputSigs input_signatures(const PhysicalOperator& c, InputRule rule, bool templ);

  // ---- Expression digests and column lineage (plan_signer_expressions.cpp) ----

  /// A column's lineage digests. The table outlives signers (pooled): a slot counts only if its
  /// epoch is the signer's, so a new signer starts with every column unknown without a fill.
  struct LineageSlot {
    Digests d;
    uint32_t epoch = 0;    // == epoch_: known to this signer
    uint32_t pending = 0;  // 0, or 1 + the index in t_->pending of how to compute d.templ (not yet computed)
  };
  /// How to compute the template digest of an output column whose producer's template was not known
  /// when the column was defined: output_digest(kind, producer's template, index).
  struct PendingLineage {
    const LogicalOperator* logical = nullptr;    // a union (kind "union_output"), or
    const PhysicalOperator* physical = nullptr;  // a physical node ("physical_output")
    uint32_t index = 0;
  };
  /// Both digests of a column's lineage (a pending template digest is computed first).
  const Digests& lineage_digests(ColumnId id);
  /// The slot of column id with its lineage known (base and unknown columns are digested on first
  /// use); its template digest may still be pending.
  LineageSlot& known_lineage_slot(ColumnId id) {
    LineageSlot& slot = lineage_slot(id);
    if (slot.epoch != epoch_) [[unlikely]] digest_origin(id, slot);
    return slot;
  }
  /// Digests the lineage of a column no signed node produced, by its origin (base or unknown column).
  void digest_origin(ColumnId id, LineageSlot& slot);
  /// The slot of column id (unknown until defined); valid until a column added to the context after
  /// the signer was made is looked up (the table then grows), or until a template is resolved.
  LineageSlot& lineage_slot(ColumnId id) {
    if (id >= t_->lineage.size()) [[unlikely]] grow_lineage(id);
    return t_->lineage[id];
  }
  void grow_lineage(ColumnId id);
  bool lineage_known(ColumnId id) const { return id < t_->lineage.size() && t_->lineage[id].epoch == epoch_; }
  /// Whether column id is a base table column (cached per signer: physical nodes pass many through).
  bool base_column(ColumnId id);
  void define(ColumnId id, const Digests& d);
  /// Defines an output column of `producer` (union or physical-only output `i`), its template digest
  /// pending if the producer's template is not known yet.
  template <class Op>
  void define_output(ColumnId id, const Op& producer, const Slot& slot, size_t i);
  /// Digests of an expression as it is (already normalized).
  Digests expr_digests(const Expr& e);
  /// Digests of one expression node whose children's digests are on the scratch digest stack from
  /// `base` (popped); `same`: every child's template digest is its exact one and the node is no
  /// constant.
  inline Digests node_digests(ExprKind kind, const Expr* e, size_t base, bool same);
  /// Digests of an expression after normalize_for_signature.
  Digests normalized_expr_digests(const Expr& e);
  /// Digests of the conjunction of `conj` after normalization (the whole conjunction normalized
  /// as one expression); remembers what the join set needs.
  Digests conjunction_digests(const std::vector<ExprPtr>& conj);
  Digests aggregate_output_digests(const LogicalAggregate& a, size_t i);
  /// H(begin(kind) sig(producer) i64(i)): a union or physical-only output column's lineage digest.
  sig::Signature output_digest(std::string_view kind, const sig::Signature& producer, size_t i);
  /// Defines the lineage of the columns a signed node produces.
  void define_outputs(const LogicalOperator& op, const Slot& slot);
  void define_outputs(const PhysicalOperator& op, const Slot& slot);

  // ---- Node forms (plan_signer_forms.cpp) ----

  /// Exact signature of a node (and its template if `templ`, else if it is the exact signature):
  /// its form (kind + parameters) over the children's signatures in sc_->exact_children /
  /// templ_children (filled if `templ`); `children_same`: every child's template is its exact one.
  template <class Op>
  void sign_form(const Op& op, std::string_view kind, Slot& slot, bool templ, bool children_same);

  // ---- Templates (plan_signer_templates.cpp) ----

  /// Computes the template of a node signed without it, its children's first (their digests again).
  template <class Op>
  void sign_template_of(const Op& op, Slot& slot);
  /// Template signature of a node signed without it: its template form over sc_->templ_children.
  template <class Op>
  sig::Signature template_form_signature(const Op& op, std::string_view kind);
  /// Computes the pending template digest of column id (signing its producer's template).
  void resolve_template(ColumnId id);

  // ---- Join sets (plan_signer_join_sets.cpp) ----

  /// The join set of the inner-join tree under an inner join, accumulated from its children's (each
  /// predicate is digested once, at the join that applies it). Its distinct predicate digests are kept
  /// too (a range of Tables::set_preds): two joins of a tree may hold conditions with one digest (columns
  /// are named by lineage: Q17's p_partkey = l_partkey under and over the decorrelated aggregate), which
  /// the set counts once, as join_set_of does.
  struct JoinSetSlot {
    sig::JoinSet set;
    sig::JoinSet templ_set;     // the template flavour: template inputs and predicate digests
    uint32_t preds = 0, preds_count = 0;              // set's digests: set_preds[preds, preds + preds_count)
    uint32_t templ_preds = 0, templ_preds_count = 0;  // templ_set's
    bool valid = false;
    bool templ_valid = false;   // set whenever the join's slot has its template
    bool templ_same = false;    // templ_set is set (no constant in the tree)
  };
  /// The join-set signature of inner join or member join `op` (is_member_join; nullopt
  /// for any other node), its children's sets known; also its template set if the slot has its
  /// template.
  std::optional<sig::Signature> join_set(const LogicalOperator& op, const Slot& slot);
  /// Computes the template join set of inner join `op` (its children's templates known).
  void template_join_set(const LogicalOperator& op);
  /// The digests (exact or template) of a join's own predicates, each condition normalized on its
  /// own and AND-split, into t_->join_preds; reuses what its form's conjunction computed.
  inline void own_predicates(const LogicalJoin& j, bool templ);
  /// Digests (exact or template) of one join condition's predicates (normalized, AND-split),
  /// appended to out.
  void predicate_digests(const Expr& condition, std::vector<sig::Signature>& out, bool templ);
  void split_predicate_digests(const Expr& e, std::vector<sig::Signature>& out, bool templ);
  /// Adds the join predicates in t_->join_preds to set, each distinct digest once (leaves them sorted, distinct).
  void add_predicates(sig::JoinSet& set);
  /// Appends the digests of a child's set (exact or template) to t_->join_preds.
  void append_set_predicates(const JoinSetSlot& child, bool templ);
  /// Keeps t_->join_preds (sorted, distinct) as the predicates of `js` (exact or template).
  void keep_set_predicates(JoinSetSlot& js, bool templ);
  /// The semi member digest (exact or template) of a semi join's type, conditions and right input.
  sig::Signature member_digest(LogicalJoinType type, const std::vector<ExprPtr>& conditions,
                               const LogicalOperator& right, bool templ);
  /// Whether `op` (signed) has a join set: an inner join or a semi member join.
  inline bool has_join_set(const LogicalOperator& op) const;

  // ---- State ----

  /// What a signer knows, by node and column id; pooled per thread (acquire_tables).
  struct Tables {
    SlotTable logical, physical;
    /// By column id, sized to the context's columns when the signer is made: a direct index instead
    /// of a probe and a slot per column touched; kept from signer to signer (see LineageSlot).
    std::vector<LineageSlot> lineage;
    /// By column id: epoch << 1 | is-a-base-column, for base_column (stamped like the lineage slots).
    std::vector<uint32_t> base;
    uint32_t epoch = 0;  // of the last signer that used the tables
    std::vector<JoinSetSlot> join_sets;       // by node id
    std::vector<PendingLineage> pending;      // LineageSlot::pending - 1 indexes it
    std::vector<sig::Signature> join_preds;   // scratch: one join's own predicate digests
    std::vector<sig::Signature> set_preds;    // the distinct predicate digests of the join sets (JoinSetSlot)
    void reset();
  };
  static std::unique_ptr<Tables> acquire_tables();
  static std::vector<std::unique_ptr<Tables>>* tables_pool();

  const PlanContext& ctx_;
  std::unique_ptr<Tables> t_;
  std::vector<const LogicalOperator*> ctes_;  // by cte index
  Scratch* sc_ = nullptr;                    // this thread's scratch at depth_, set by each sign()
  size_t depth_ = 0;                         // resolve_template nesting
  uint32_t epoch_ = 0;                       // marks the lineage slots this signer defined

  // What the last conjuncts()/exprs() call of the node being signed computed, for define_outputs
  // and join_set (which would otherwise normalize the same expressions again).
  const std::vector<ExprPtr>* last_conj_src_ = nullptr;
  ExprPtr last_conj_;                            // the normalized conjunction, if it had to be built
  std::vector<Digests> last_conj_parts_;         // else: digests of the (already normal) conjuncts
  const std::vector<ExprPtr>* last_exprs_src_ = nullptr;
  std::vector<Digests> last_exprs_;
};

}  // namespace hindsight
