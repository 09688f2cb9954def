#pragma once
// The seam through which observed statistics override the optimizer's model (DESIGN.md section 5).
// Knows signatures, never plan nodes: the planner computes a node's signatures and asks.
#include <cstdint>
#include <optional>

#include "signatures/signature.hpp"

namespace hindsight::stats {

/// Where an estimate came from. The JSON contract spells them model | runtime | join_set |
/// template | oracle.
enum class EstimateSource : uint8_t {
  Model,    ///< the classical cardinality model (no observation)
  Runtime,  ///< observed for this exact sub-plan (exact signature)
  JoinSet,  ///< observed for the same inner-join set in another join order or algorithm
  Template, ///< observed for the same sub-plan with other constants
  Oracle,   ///< supplied from outside (tests, what-if analysis)
};
const char* estimate_source_name(EstimateSource s);

/// What a source knows about one signature.
struct ObservedRows {
  double rows = 0;
  /// True when every observation was cut short (LIMIT early exit, failed attempt): the true
  /// count is at least `rows`. A lower bound never replaces a larger model estimate.
  bool lower_bound = false;
  uint32_t observations = 1;
  /// 0..1: how much the source trusts the figure (agreement between observations, age).
  double confidence = 1;
  /// What the computation held and produced, when known (0 = unknown): feeds the cost model's
  /// memory estimate of the node (a hash join's build side above all).
  uint64_t bytes = 0;
  int64_t peak_memory = 0;
  uint64_t build_bytes = 0;
};

/// The signatures of one plan node, as the planner computed them.
struct SignatureKeys {
  sig::Signature exact;
  std::optional<sig::Signature> join_set;  ///< inner-join trees only
  sig::Signature templ;
};

/// An answer, with the key kind that produced it.
struct RowEstimate {
  ObservedRows observed;
  EstimateSource source = EstimateSource::Runtime;
};

/// The one rule for combining answers given in rank order (the keys of one look-up, the layers of
/// a LayeredStatsSource): the first exact count answers, raised to the largest lower bound ranked
/// before it; with lower bounds only, the largest of them (still a lower bound).
class RankedAnswer {
 public:
  /// Offers the next answer in rank order; true once an exact count decided (stop offering).
  bool offer(const std::optional<RowEstimate>& e) {
    if (!e) return false;
    if (e->observed.lower_bound) {
      if (!bound_ || e->observed.rows > bound_->observed.rows) bound_ = e;
      return false;
    }
    exact_ = e;
    if (bound_ && bound_->observed.rows > exact_->observed.rows) exact_->observed.rows = bound_->observed.rows;
    return true;
  }
  std::optional<RowEstimate> result() const { return exact_ ? exact_ : bound_; }

 private:
  std::optional<RowEstimate> exact_, bound_;
};

/// Observed output rows by signature. Implementations: the query scope (one attempt chain), the
/// process scope and the persistent SQLite store (stats_store), and EmptyStatsSource.
class StatsSource {
 public:
  enum class KeyKind : uint8_t { Exact, JoinSet, Template };
  virtual ~StatsSource() = default;
  /// Rows observed for `key` of the given kind; nullopt when nothing is known.
  virtual std::optional<ObservedRows> find(KeyKind kind, const sig::Signature& key) const = 0;
  /// True when find() can never answer: lets the planner skip computing signatures.
  virtual bool empty() const { return false; }

  /// The lookup order every consumer uses: exact signature, then join-set, then template. The first
  /// exact count answers (raised to a larger lower bound a better-ranked key knew); a lower bound
  /// does not stop the search; with only lower bounds, the largest. A source whose answers are not
  /// observations (the oracle) says so by overriding it.
  virtual std::optional<RowEstimate> lookup(const SignatureKeys& keys) const;
};

/// Knows nothing: every estimate comes from the model.
class EmptyStatsSource final : public StatsSource {
 public:
  std::optional<ObservedRows> find(KeyKind, const sig::Signature&) const override { return std::nullopt; }
  bool empty() const override { return true; }
};

}  // namespace hindsight::stats
