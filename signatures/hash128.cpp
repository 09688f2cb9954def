#include "signatures/hash128.hpp"

#include <algorithm>
#include <bit>
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

/// Byte-swaps on little-endian hosts: the value whose numeric order is the byte order of v's little-endian bytes
/// (and back again).
uint64_t to_big_endian(uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) return __builtin_bswap64(v);
  return v;
}

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

Signature join_set_signature(std::vector<Signature> inputs, std::vector<std::string> predicate_forms) {
  std::sort(inputs.begin(), inputs.end());
  CanonicalEncoder enc;
  enc.begin("join_set").field("version").i64(SIGNATURE_VERSION);
  enc.field("inputs").begin_list();
  for (const Signature& input : inputs) enc.sig(input);
  enc.end_list();
  enc.field("predicates").begin_set();
  for (const std::string& p : predicate_forms) enc.str(p);
  enc.end_set();
  return hash128(enc.bytes());
}

Signature join_set_signature_of_digests(std::span<const Signature> inputs, std::span<const Signature> predicate_digests) {
  // The documented token sequence (hash128.hpp), written directly (pinned against CanonicalEncoder by the tests).
  // A set orders its elements by their bytes; a predicate element is 'G' + hi + lo little-endian, so byte order is
  // the numeric order of the byte-swapped halves.
  static const std::string prefix = layout_prefix("join_set", "inputs");
  static const std::string predicates_key = key_token("predicate_digests");
  thread_local std::vector<Signature> sorted_inputs;
  thread_local std::vector<std::pair<uint64_t, uint64_t>> preds;  // (byte-order key of hi, of lo)
  thread_local ByteBuffer buf;
  sorted_inputs.assign(inputs.begin(), inputs.end());
  std::sort(sorted_inputs.begin(), sorted_inputs.end());
  preds.clear();
  for (const Signature& p : predicate_digests) preds.emplace_back(to_big_endian(p.hi), to_big_endian(p.lo));
  std::sort(preds.begin(), preds.end());
  preds.erase(std::unique(preds.begin(), preds.end()), preds.end());

  buf.clear();
  const size_t list = 17 * sorted_inputs.size();
  char* p = buf.grow(prefix.size() + 5 + list + predicates_key.size() + 5 + 21 * preds.size());
  std::memcpy(p, prefix.data(), prefix.size());
  p += prefix.size();
  *p = 'L';
  store_le32(p + 1, list);
  p += 5;
  for (const Signature& input : sorted_inputs) {
    put_sig_token(p, input.hi, input.lo);
    p += 17;
  }
  std::memcpy(p, predicates_key.data(), predicates_key.size());
  p += predicates_key.size();
  *p = 'T';
  store_le32(p + 1, preds.size());
  p += 5;
  for (const auto& [hi_key, lo_key] : preds) {
    store_le32(p, 17);
    put_sig_token(p + 4, to_big_endian(hi_key), to_big_endian(lo_key));  // byte swap is its own inverse
    p += 21;
  }
  return hash128(buf.view());
}

}  // namespace hindsight::sig
