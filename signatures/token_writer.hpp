#pragma once
// The CanonicalEncoder byte format (canonical_encoder.hpp) for hot paths whose token sequence is
// fixed by code, such as the plan signer, which writes a few dozen tokens per plan node: the same
// bytes, with no frame bookkeeping and no misuse checks. Lists are closed with the position
// begin_list() returned; a set holds elements of one fixed size (a signature, or a list of two
// signatures), sorted by their bytes and de-duplicated at end_set(). The tests pin its output
// against CanonicalEncoder byte for byte.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "signatures/byte_buffer.hpp"
#include "signatures/signature.hpp"

namespace hindsight::sig {

class TokenWriter {
 public:
  enum class Mode { Exact, Template };  ///< as CanonicalEncoder::Mode: Template writes typed placeholders

  explicit TokenWriter(Mode mode = Mode::Exact) : mode_(mode) {}

  void clear() { buf_.clear(); }
  /// Empties the writer but for n leading bytes left for the caller to fill in (a hash header).
  void clear_reserving(size_t n) {
    buf_.clear();
    buf_.grow(n);
  }
  /// The bytes written, for a caller that completes and hashes them in place.
  ByteBuffer& bytes() { return buf_; }
  std::string_view view() const { return buf_.view(); }
  size_t size() const { return buf_.size(); }

  [[gnu::always_inline]] TokenWriter& begin(std::string_view kind) { return put('K', kind); }
  [[gnu::always_inline]] TokenWriter& field(std::string_view key) { return put('F', key); }
  [[gnu::always_inline]] TokenWriter& str(std::string_view value) { return put('S', value); }
  TokenWriter& i64(int64_t value) { return put_u64('I', static_cast<uint64_t>(value)); }
  TokenWriter& boolean(bool value) {
    char* p = buf_.grow(2);
    p[0] = 'B';
    p[1] = static_cast<char>(value ? 1 : 0);
    return *this;
  }
  TokenWriter& null() {
    *buf_.grow(1) = 'N';
    return *this;
  }
  TokenWriter& sig(const Signature& value) {
    char* p = buf_.grow(17);
    p[0] = 'G';
    store_le64(p + 1, value.hi);
    store_le64(p + 9, value.lo);
    return *this;
  }

  TokenWriter& constant_i64(std::string_view type_tag, int64_t value) {
    return constant_header(type_tag) ? put_u64('I', static_cast<uint64_t>(value)) : *this;
  }
  TokenWriter& constant_f64(std::string_view type_tag, double value) {
    return constant_header(type_tag) ? put_u64('D', canonical_double_bits(value)) : *this;
  }
  TokenWriter& constant_str(std::string_view type_tag, std::string_view value) {
    return constant_header(type_tag) ? put('S', value) : *this;
  }
  TokenWriter& constant_null(std::string_view type_tag) { return constant_header(type_tag) ? null() : *this; }

  /// Opens a list; returns what end_list needs.
  size_t begin_list() {
    const size_t header = buf_.size();
    *buf_.grow(5) = 'L';  // the length is patched in by end_list
    return header;
  }
  TokenWriter& end_list(size_t header) {
    store_le32(buf_.data() + header + 1, buf_.size() - header - 5);
    return *this;
  }

  /// Opens a set whose elements (tokens written next, at the set's level) are each `element_size`
  /// bytes; returns what end_set needs.
  size_t begin_set() const { return buf_.size(); }
  TokenWriter& end_set(size_t start, size_t element_size) {
    const size_t n = (buf_.size() - start) / element_size;
    if (n <= 2 && element_size <= kSigPairToken) return end_small_set(start, element_size, n);
    const char* base = buf_.data() + start;
    order_.clear();
    for (size_t i = 0; i < n; ++i) order_.push_back(static_cast<uint32_t>(i * element_size));
    auto less = [&](uint32_t a, uint32_t b) { return std::memcmp(base + a, base + b, element_size) < 0; };
    auto same = [&](uint32_t a, uint32_t b) { return std::memcmp(base + a, base + b, element_size) == 0; };
    std::sort(order_.begin(), order_.end(), less);
    order_.erase(std::unique(order_.begin(), order_.end(), same), order_.end());
    elements_.assign(base, base + n * element_size);
    buf_.truncate(start);
    char* p = buf_.grow(5 + order_.size() * (4 + element_size));
    p[0] = 'T';
    store_le32(p + 1, order_.size());
    p += 5;
    for (uint32_t offset : order_) {
      store_le32(p, element_size);
      std::memcpy(p + 4, elements_.data() + offset, element_size);
      p += 4 + element_size;
    }
    return *this;
  }

  /// Size of a sig() token, and of a list of two of them: the set elements the signer writes.
  static constexpr size_t kSigToken = 17;
  static constexpr size_t kSigPairToken = 5 + 2 * kSigToken;

 private:
  [[gnu::always_inline]] TokenWriter& put(char tag, std::string_view bytes) {
    char* p = buf_.grow(5 + bytes.size());
    p[0] = tag;
    store_le32(p + 1, bytes.size());
    ByteBuffer::copy_bytes(p + 5, bytes.data(), bytes.size());  // names and keys: short, copied inline
    return *this;
  }
  /// end_set for at most two elements (most sets a plan node writes): ordered and de-duplicated in place, each
  /// moved right to make room for the set header and its element size.
  TokenWriter& end_small_set(size_t start, size_t element_size, size_t n) {
    if (n == 2) {
      char element[kSigPairToken];
      char* a = buf_.data() + start;
      char* b = a + element_size;
      const int order = std::memcmp(a, b, element_size);
      if (order == 0) {
        n = 1;
        buf_.truncate(start + element_size);
      } else if (order > 0) {
        std::memcpy(element, a, element_size);
        std::memmove(a, b, element_size);
        std::memcpy(b, element, element_size);
      }
    }
    buf_.grow(5 + 4 * n);
    char* base = buf_.data() + start;
    // Back to front, so no element is overwritten before it has moved.
    for (size_t i = n; i-- > 0;) {
      char* to = base + 5 + i * (4 + element_size);
      std::memmove(to + 4, base + i * element_size, element_size);
      store_le32(to, element_size);
    }
    base[0] = 'T';
    store_le32(base + 1, n);
    return *this;
  }
  TokenWriter& put_u64(char tag, uint64_t v) {
    char* p = buf_.grow(9);
    p[0] = tag;
    store_le64(p + 1, v);
    return *this;
  }
  /// Writes a constant's header; true if its value follows (exact mode).
  bool constant_header(std::string_view type_tag) {
    put(mode_ == Mode::Exact ? 'C' : '?', type_tag);
    return mode_ == Mode::Exact;
  }

  Mode mode_;
  ByteBuffer buf_;
  std::vector<uint32_t> order_;  // end_set: element offsets, sorted
  std::vector<char> elements_;   // end_set: a copy of the elements
};

}  // namespace hindsight::sig
