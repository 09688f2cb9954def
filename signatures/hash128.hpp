#pragma once
// The stable, documented signature hash (DESIGN.md section 3). Everything below is part of SIGNATURE_VERSION:
// changing any of it requires bumping the version.
//
// H(bytes) = XXH3_128bits_withSeed(bytes, HASH128_SEED) from xxHash 0.8 (a stable, specified algorithm with the
//   same output on every platform and endianness), with Signature{hi = high64, lo = low64}.
//   HASH128_SEED = 0x48494E4453494748 (the ASCII bytes "HINDSIGH").
//
// Fixed-layout headers (since version 3; they were CanonicalEncoder token sequences before): a one-byte domain
// tag and the version as u32, then fixed-width fields, all integers little-endian. Short inputs keep the hash in
// XXH3's cheapest length classes, and the tag keeps tree and join-set signatures in separate domains.
//
// tree_signature(form, children) = H('T' u32(SIGNATURE_VERSION) u32(byte length of form) form
//                                    hi(child_0) lo(child_0) ... hi(child_n-1) lo(child_n-1))
//   `form` is the operator's canonical bytes (CanonicalEncoder::bytes()); its length delimits it, and each child
//   is 16 bytes (hi, then lo, u64 each), so the bytes parse back into exactly one (form, children). Children keep
//   their plan order (the left and right input of a join are different roles). A template signature is a
//   tree_signature over the Template-mode form whose children are template signatures too.
//
// join_set_signature_of_digests(inputs, predicate_digests) = JoinSet with every input added, and every distinct
//   predicate digest added once, then signature():
//     H('J' u32(SIGNATURE_VERSION) hi(input_sum) lo(input_sum) u64(input_count)
//                                   hi(predicate_sum) lo(predicate_sum) u64(predicate_count))
//   where input_sum / predicate_sum are the sums mod 2^128 of element(d) over the inputs / predicates, and
//   element(d) = {hi: fmix(d.hi), lo: fmix(d.lo)} (fmix: the splitmix64 finalizer, a bijection). A sum does not
//   depend on the order of its terms, so a join tree's set can be accumulated bottom-up, one join at a time
//   (JoinSet::merge), and is the same for every join order and join algorithm. Inputs are a multiset (a self-join
//   of `a` with `a` differs from `a` alone); predicates are a set: each distinct digest counted once (the plan
//   signer gives a join's own conditions once each, and one predicate cannot sit at two joins of one tree).
// join_set_signature(inputs, predicate_forms) = join_set_signature_of_digests(inputs, H(form) for each form).
//   The predicate's digest is H of its canonical form bytes (or any other injective-by-hash naming the caller
//   documents).
// The "tree" / "join_set" kinds keep the two kinds of signature in separate domains. Never std::hash, never a
// hash of serialized protobuf bytes (not canonical).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "signatures/byte_buffer.hpp"
#include "signatures/signature.hpp"

namespace hindsight::sig {

/// The fixed xxHash seed of every signature: ASCII "HINDSIGH".
inline constexpr uint64_t HASH128_SEED = 0x48494E4453494748ULL;

/// XXH3 128-bit hash of `bytes` with HASH128_SEED.
Signature hash128(std::string_view bytes);

/// Signature of an operator tree: version, the operator's canonical form, its children's signatures in order.
Signature tree_signature(std::string_view canonical_form, const std::vector<Signature>& children);

/// The bytes tree_signature hashes before the form: tag, version and the form's length.
inline constexpr size_t kTreeHeaderBytes = 9;
/// tree_signature(form, children) for a form written into `buf` after kTreeHeaderBytes reserved bytes, hashed where
/// it is: fills in the header, appends the children, hashes, and drops the children again (so the same form can be
/// hashed over other children next).
Signature tree_signature_in_place(ByteBuffer& buf, std::span<const Signature> children);

/// A tree of inner joins being accumulated (see above): add its inputs and predicates, or merge the sets of its
/// sub-trees, in any order; signature() is the join-set signature.
class JoinSet {
 public:
  void add_input(const Signature& input) { add(inputs_, input_count_, input); }
  /// Each distinct predicate once: the sum cannot tell a repeated predicate from a new one.
  void add_predicate(const Signature& digest) { add(predicates_, predicate_count_, digest); }
  /// A member (the right input of a semi, anti or LEFT join inside the tree, with its predicate: see
  /// semi_member_signature). A set without members has the layout of a plain inner-join set.
  void add_member(const Signature& member) { add(members_, member_count_, member); }
  /// The union of two disjoint sub-trees (inputs and predicates of both).
  void merge(const JoinSet& other);
  /// The inputs and members of another set (its predicates are the caller's to add, each distinct one once:
  /// a digest held by both sets would count twice in merge's sum).
  void merge_inputs(const JoinSet& other);
  Signature signature() const;

 private:
  static void add(Signature& sum, uint64_t& count, const Signature& d);
  Signature inputs_, predicates_, members_;
  uint64_t input_count_ = 0, predicate_count_ = 0, member_count_ = 0;
};

/// The digest of a member of a join set: the join's kind ("semi", "anti", "null-aware anti", "left"), the signature
/// of its right input and the set of its predicate digests (repeats count once; order free).
Signature semi_member_signature(std::string_view kind, const Signature& right, std::vector<Signature> predicate_digests);

/// Signature of a tree of inner joins: multiset of input signatures, set of join-predicate canonical forms.
Signature join_set_signature(std::vector<Signature> inputs, std::vector<std::string> predicate_forms);

/// Signature of a tree of inner joins: multiset of input signatures, set of join-predicate digests (repeats count
/// once).
Signature join_set_signature_of_digests(std::span<const Signature> inputs, std::span<const Signature> predicate_digests);

}  // namespace hindsight::sig
