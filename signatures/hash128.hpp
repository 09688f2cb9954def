#pragma once
// The stable, documented signature hash (DESIGN.md section 3). Everything below is part of SIGNATURE_VERSION:
// changing any of it requires bumping the version.
//
// H(bytes) = XXH3_128bits_withSeed(bytes, HASH128_SEED) from xxHash 0.8 (a stable, specified algorithm with the
//   same output on every platform and endianness), with Signature{hi = high64, lo = low64}.
//   HASH128_SEED = 0x48494E4453494748 (the ASCII bytes "HINDSIGH").
//
// tree_signature(form, children) = H(bytes of the CanonicalEncoder token sequence)
//     begin("tree") field("version") i64(SIGNATURE_VERSION)
//     field("form") str(form)
//     field("children") begin_list() sig(child_0) ... sig(child_n-1) end_list()
//   `form` is the operator's canonical bytes (CanonicalEncoder::bytes()); children keep their plan order (the
//   left and right input of a join are different roles). A template signature is a tree_signature over the
//   Template-mode form whose children are template signatures too.
//
// join_set_signature(inputs, predicates) = H(bytes of)
//     begin("join_set") field("version") i64(SIGNATURE_VERSION)
//     field("inputs") begin_list() sig(...) for the inputs sorted by (hi, lo), duplicates KEPT end_list()
//     field("predicates") begin_set() str(p) for each predicate form end_set()     (sorted, duplicates removed)
//   The inputs are a multiset: a self-join of two identical inputs differs from the single input, while the
//   result is the same for every join order and join algorithm over those inputs and predicates.
//
// join_set_signature_of_digests(inputs, predicate_digests) = H(bytes of)
//     begin("join_set") field("version") i64(SIGNATURE_VERSION)
//     field("inputs") begin_list() sig(...) for the inputs sorted by (hi, lo), duplicates KEPT end_list()
//     field("predicate_digests") begin_set() sig(d) for each predicate digest end_set()   (sorted, de-duplicated)
//   The same join set with each predicate given by a 128-bit digest of its canonical form (H of the form's bytes,
//   or any other injective-by-hash naming the caller documents) instead of the form itself: no predicate bytes
//   are copied. The "predicate_digests" key keeps it apart from the form-based variant.
//
// The "tree" / "join_set" kinds keep the two kinds of signature in separate domains. Never std::hash, never a
// hash of serialized protobuf bytes (not canonical).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "signatures/signature.hpp"

namespace hindsight::sig {

/// The fixed xxHash seed of every signature: ASCII "HINDSIGH".
inline constexpr uint64_t HASH128_SEED = 0x48494E4453494748ULL;

/// XXH3 128-bit hash of `bytes` with HASH128_SEED.
Signature hash128(std::string_view bytes);

/// Signature of an operator tree: version, the operator's canonical form, its children's signatures in order.
Signature tree_signature(std::string_view canonical_form, const std::vector<Signature>& children);

/// Signature of a tree of inner joins: multiset of input signatures, set of join-predicate canonical forms.
Signature join_set_signature(std::vector<Signature> inputs, std::vector<std::string> predicate_forms);

/// Signature of a tree of inner joins: multiset of input signatures, set of join-predicate digests (see above).
/// Allocation-free after the first call on a thread.
Signature join_set_signature_of_digests(std::span<const Signature> inputs, std::span<const Signature> predicate_digests);

}  // namespace hindsight::sig
