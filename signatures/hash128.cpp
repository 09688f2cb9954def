#include "signatures/hash128.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

// The hash is compiled inline (no call through the shared library on the per-node path); the result is the
// library's, bit for bit (tests compare it with the library for short and long inputs).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "signatures/byte_buffer.hpp"
#include "signatures/canonical_encoder.hpp"

namespace hindsight::sig {

Signature hash128(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits_withSeed(bytes.data(), bytes.size(), HASH128_SEED);
  return Signature{h.high64, h.low64};
}

namespace {

/// The 'G' token of a signature: tag, hi, lo (8 bytes each, little-endian).
inline void put_sig_token(char* p, uint64_t hi, uint64_t lo) {
  p[0] = 'G';
  store_le64(p + 1, hi);
  store_le64(p + 9, lo);
}

/// CanonicalEncoder bytes of `begin(kind) field("version") i64(SIGNATURE_VERSION)` followed by the 'F' token of
/// `first_key` (a pending key cannot be read back from an encoder, so it is appended by hand).
std::string layout_prefix(std::string_view kind, std::string_view first_key) {
  CanonicalEncoder e;
  e.begin(kind).field("version").i64(SIGNATURE_VERSION);
  std::string p(e.view());
  char len[4];
  store_le32(len, first_key.size());
  p.push_back('F');
  p.append(len, 4);
  p.append(first_key);
  return p;
}

/// The 'F' token of a key.
std::string key_token(std::string_view key) {
  char len[4];
  store_le32(len, key.size());
  std::string t(1, 'F');
  t.append(len, 4);
  t.append(key);
  return t;
}

}  // namespace

Signature tree_signature(std::string_view canonical_form, const std::vector<Signature>& children) {
  // Signing runs once per plan node: the documented token sequence (see hash128.hpp) is written straight into one
  // reused buffer, byte for byte what a CanonicalEncoder would produce (pinned by the tests).
  static const std::string prefix = layout_prefix("tree", "form");
  static const std::string children_key = key_token("children");
  thread_local ByteBuffer buf;
  buf.clear();
  const size_t list = 17 * children.size();
  char* p = buf.grow(prefix.size() + 5 + canonical_form.size() + children_key.size() + 5 + list);
  std::memcpy(p, prefix.data(), prefix.size());
  p += prefix.size();
  *p = 'S';
  store_le32(p + 1, canonical_form.size());
  if (!canonical_form.empty()) std::memcpy(p + 5, canonical_form.data(), canonical_form.size());
  p += 5 + canonical_form.size();
  std::memcpy(p, children_key.data(), children_key.size());
  p += children_key.size();
  *p = 'L';
  store_le32(p + 1, list);
  p += 5;
  for (const Signature& child : children) {
    put_sig_token(p, child.hi, child.lo);
    p += 17;
  }
  return hash128(buf.view());
}

namespace {
/// The splitmix64 finalizer: a bijection on 64-bit values.
uint64_t fmix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// sum += {hi, lo} mod 2^128.
void add128(Signature& sum, uint64_t hi, uint64_t lo) {
  sum.lo += lo;
  sum.hi += hi + (sum.lo < lo ? 1 : 0);
}
}  // namespace

void JoinSet::add(Signature& sum, uint64_t& count, const Signature& d) {
  add128(sum, fmix(d.hi), fmix(d.lo));
  ++count;
}

void JoinSet::merge(const JoinSet& other) {
  add128(inputs_, other.inputs_.hi, other.inputs_.lo);
  add128(predicates_, other.predicates_.hi, other.predicates_.lo);
  input_count_ += other.input_count_;
  predicate_count_ += other.predicate_count_;
}

Signature JoinSet::signature() const {
  // The documented token sequence (hash128.hpp), written directly (pinned against CanonicalEncoder by the tests).
  static const std::string prefix = layout_prefix("join_set", "inputs");
  static const std::string predicates_key = key_token("predicates");
  char buf[192];  // the prefixes are under 64 bytes each
  char* p = buf;
  std::memcpy(p, prefix.data(), prefix.size());
  p += prefix.size();
  put_sig_token(p, inputs_.hi, inputs_.lo);
  p[17] = 'I';
  store_le64(p + 18, input_count_);
  p += 26;
  std::memcpy(p, predicates_key.data(), predicates_key.size());
  p += predicates_key.size();
  put_sig_token(p, predicates_.hi, predicates_.lo);
  p[17] = 'I';
  store_le64(p + 18, predicate_count_);
  p += 26;
  return hash128(std::string_view(buf, static_cast<size_t>(p - buf)));
}

Signature join_set_signature(std::vector<Signature> inputs, std::vector<std::string> predicate_forms) {
  std::vector<Signature> digests;
  digests.reserve(predicate_forms.size());
  for (const std::string& form : predicate_forms) digests.push_back(hash128(form));
  return join_set_signature_of_digests(inputs, digests);
}

Signature join_set_signature_of_digests(std::span<const Signature> inputs, std::span<const Signature> predicate_digests) {
  JoinSet set;
  for (const Signature& input : inputs) set.add_input(input);
  std::vector<Signature> preds(predicate_digests.begin(), predicate_digests.end());
  std::sort(preds.begin(), preds.end());
  preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
  for (const Signature& p : preds) set.add_predicate(p);
  return set.signature();
}

}  // namespace hindsight::sig
