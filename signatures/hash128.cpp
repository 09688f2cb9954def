#include "signatures/hash128.hpp"

#include <algorithm>

#include <xxhash.h>

#include "signatures/canonical_encoder.hpp"

namespace hindsight::sig {

Signature hash128(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits_withSeed(bytes.data(), bytes.size(), HASH128_SEED);
  return Signature{h.high64, h.low64};
}

Signature tree_signature(std::string_view canonical_form, const std::vector<Signature>& children) {
  // Signing runs once per plan node; reusing one encoder per thread keeps it free of allocations.
  thread_local CanonicalEncoder enc;
  enc.clear();
  enc.begin("tree").field("version").i64(SIGNATURE_VERSION);
  enc.field("form").str(canonical_form);
  enc.field("children").begin_list();
  for (const Signature& child : children) enc.sig(child);
  enc.end_list();
  return hash128(enc.bytes());
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

}  // namespace hindsight::sig
