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

namespace hindsight::sig {

Signature hash128(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits_withSeed(bytes.data(), bytes.size(), HASH128_SEED);
  return Signature{h.high64, h.low64};
}

namespace {

/// A signature as 16 bytes: hi, then lo, little-endian.
inline char* put_sig(char* p, const Signature& s) {
  store_le64(p, s.hi);
  store_le64(p + 8, s.lo);
  return p + 16;
}

/// The header of every layout: domain tag and version.
inline char* put_header(char* p, char tag) {
  p[0] = tag;
  store_le32(p + 1, SIGNATURE_VERSION);
  return p + 5;
}

}  // namespace

Signature tree_signature(std::string_view canonical_form, const std::vector<Signature>& children) {
  // The form copied after room for the header into one reused buffer, then the one layout code path.
  thread_local ByteBuffer buf;
  buf.clear();
  buf.grow(kTreeHeaderBytes);
  buf.append(canonical_form);
  return tree_signature_in_place(buf, children);
}

Signature tree_signature_in_place(ByteBuffer& buf, std::span<const Signature> children) {
  const size_t form_end = buf.size();
  char* p = put_header(buf.data(), 'T');
  store_le32(p, form_end - kTreeHeaderBytes);
  p = buf.grow(16 * children.size());
  for (const Signature& child : children) p = put_sig(p, child);
  const Signature h = hash128(buf.view());
  buf.truncate(form_end);
  return h;
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
  add128(members_, other.members_.hi, other.members_.lo);
  input_count_ += other.input_count_;
  predicate_count_ += other.predicate_count_;
  member_count_ += other.member_count_;
}

void JoinSet::merge_inputs(const JoinSet& other) {
  add128(inputs_, other.inputs_.hi, other.inputs_.lo);
  add128(members_, other.members_.hi, other.members_.lo);
  input_count_ += other.input_count_;
  member_count_ += other.member_count_;
}

Signature JoinSet::signature() const {
  char buf[5 + 2 * (16 + 8)];
  char* p = put_header(buf, 'J');
  p = put_sig(p, inputs_);
  store_le64(p, input_count_);
  p = put_sig(p + 8, predicates_);
  store_le64(p, predicate_count_);
  if (member_count_ == 0) return hash128(std::string_view(buf, sizeof buf));
  // With semi members: the same fields, then the members' sum and count.
  char with_members[sizeof buf + 16 + 8];
  std::memcpy(with_members, buf, sizeof buf);
  char* q = put_sig(with_members + sizeof buf, members_);
  store_le64(q, member_count_);
  return hash128(std::string_view(with_members, sizeof with_members));
}

Signature semi_member_signature(std::string_view kind, const Signature& right, std::vector<Signature> predicate_digests) {
  std::sort(predicate_digests.begin(), predicate_digests.end());
  predicate_digests.erase(std::unique(predicate_digests.begin(), predicate_digests.end()), predicate_digests.end());
  std::string buf(5 + 4 + kind.size() + 16 + 16 * predicate_digests.size(), '\0');
  char* p = put_header(buf.data(), 'M');
  store_le32(p, static_cast<uint32_t>(kind.size()));
  std::memcpy(p + 4, kind.data(), kind.size());
  p = put_sig(p + 4 + kind.size(), right);
  for (const Signature& d : predicate_digests) p = put_sig(p, d);
  return hash128(buf);
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
