#pragma once
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace hindsight::sig {

/// Version of the signature encoding (canonical byte format, hash seed, tree / join-set layout). Part of every
/// tree and join-set signature. Bump it whenever any of those change: stats recorded under another version are
/// ignored (with one warning) by their consumer, never misused.
///   1: first release.
///   2: plan signatures name expressions and column lineages by 128-bit digests of their canonical bytes instead
///      of nesting those bytes (planner/signing/plan_signer.hpp); join sets over predicate digests
///      (join_set_signature_of_digests). The byte format of CanonicalEncoder is unchanged.
///   3: join-set signatures are order-independent sums of mixed input and predicate digests (hash128.hpp), so a
///      join tree's set is accumulated one join at a time instead of sorted and re-hashed at every join; tree and
///      join-set signatures hash short fixed-layout headers instead of encoder token sequences.
///   4: a column reference in an expression is named by the column's lineage digest itself, not by a digest of a
///      "ref" token over it: a reference is what it refers to (and one hash per referenced column fewer).
///   5: a plan node names its inputs as relations (docs/signatures.md, "Inputs"): a node above an inner-join
///      tree names it by the tree's join-set signature (its template by the template join set), so it signs
///      the same whatever the join order; an input projection is seen through (its expressions are in the
///      lineage of the columns read above it), so pruning does not change a signature; a CTE reference no
///      longer lists the producer columns it reads. The byte format and hash layouts are unchanged.
///   6: semi, anti and null-aware anti joins whose conditions read their left input are part of the join set of
///      the tree below them (docs/signatures.md, "Join sets"): each is a semi member (its kind, its right input
///      and its predicates: semi_member_signature), the node has the join-set signature of the tree with it, and
///      a node above it names it by that set, so an inner-join tree with semi joins inside signs the same in
///      every order the join enumerator may choose. A join set without members keeps its layout.
///   7: LEFT joins whose conditions read their left input are part of the join set of the tree below them too
///      (docs/signatures.md, "Join sets"): a LEFT member (kind LEFT, its null-producing input, its predicates), so
///      the join enumerator may move a LEFT join among the inner joins of its preserved side without renaming the
///      nodes above; a set with a LEFT member differs from the inner join of the same relations. A LEFT join node
///      (and every node above one) signs differently from version 6; the layouts are unchanged.
inline constexpr uint32_t SIGNATURE_VERSION = 7;

/// A 128-bit stable signature. Compared by value; `hi` is the more significant half.
struct Signature {
  uint64_t hi = 0;
  uint64_t lo = 0;

  /// 32 lowercase hex characters, `hi` first.
  std::string hex() const;
  /// The first 8 hex characters (for EXPLAIN and logs; not unique).
  std::string short_hex() const;
  /// Parses exactly 32 hex characters (either case); nullopt on anything else.
  static std::optional<Signature> from_hex(std::string_view text);

  /// Lexicographic on (hi, lo): a total order for sorted containers and canonical multisets.
  friend auto operator<=>(const Signature&, const Signature&) = default;
  friend bool operator==(const Signature&, const Signature&) = default;
};

}  // namespace hindsight::sig

/// For unordered containers only; never part of a signature or of anything persisted.
template <>
struct std::hash<hindsight::sig::Signature> {
  size_t operator()(const hindsight::sig::Signature& s) const noexcept {
    // The halves are already uniformly distributed hash output; mixing them is enough.
    return static_cast<size_t>(s.hi ^ (s.lo * 0x9E3779B97F4A7C15ULL));
  }
};
