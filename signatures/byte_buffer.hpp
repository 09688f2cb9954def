#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace hindsight::sig {

/// Growable bytes with inline appends, for building canonical encodings on hot paths: a token is one capacity
/// check and a few stores (std::string::append is an out-of-line call per piece). Keeps its capacity across
/// clear(). Helpers below write the fixed-width little-endian integers of the canonical format.
class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer& o) { append(o.data(), o.size()); }
  ByteBuffer& operator=(const ByteBuffer& o) {
    if (this != &o) {
      clear();
      append(o.data(), o.size());
    }
    return *this;
  }
  ByteBuffer(ByteBuffer&& o) noexcept : data_(std::move(o.data_)), size_(o.size_), cap_(o.cap_) { o.size_ = o.cap_ = 0; }
  ByteBuffer& operator=(ByteBuffer&& o) noexcept {
    data_ = std::move(o.data_);
    size_ = o.size_;
    cap_ = o.cap_;
    o.size_ = o.cap_ = 0;
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const char* data() const { return data_.get(); }
  char* data() { return data_.get(); }
  std::string_view view() const { return size_ ? std::string_view(data_.get(), size_) : std::string_view(); }
  void clear() { size_ = 0; }
  /// Drops the bytes from position n on (n <= size()).
  void truncate(size_t n) { size_ = n; }

  /// Appends n (uninitialized) bytes and returns where they go.
  [[gnu::always_inline]] char* grow(size_t n) {
    if (n > cap_ - size_) reserve_more(n);
    char* p = data_.get() + size_;
    size_ += n;
    return p;
  }
  void append(const char* p, size_t n) { copy_bytes(grow(n), p, n); }
  void append(std::string_view s) { append(s.data(), s.size()); }
  void push_back(char c) { *grow(1) = c; }

  /// memcpy, with short copies (names, keys) done inline by two overlapping fixed-size moves.
  static void copy_bytes(char* dst, const char* src, size_t n) {
    if (n >= 8 && n <= 16) {
      std::memcpy(dst, src, 8);
      std::memcpy(dst + n - 8, src + n - 8, 8);
    } else if (n >= 4 && n < 8) {
      std::memcpy(dst, src, 4);
      std::memcpy(dst + n - 4, src + n - 4, 4);
    } else if (n < 4) {
      for (size_t i = 0; i < n; ++i) dst[i] = src[i];
    } else {
      std::memcpy(dst, src, n);
    }
  }

 private:
  [[gnu::noinline, gnu::cold]] void reserve_more(size_t n) {
    size_t cap = std::max<size_t>({64, 2 * cap_, size_ + n});
    std::unique_ptr<char[]> grown(new char[cap]);
    if (size_) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    cap_ = cap;
  }

  std::unique_ptr<char[]> data_;
  size_t size_ = 0, cap_ = 0;
};

/// Little-endian fixed-width integers of the canonical byte format.
inline void store_le64(char* p, uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, 8);
  } else {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  }
}

/// One bit pattern per value: -0.0 == 0.0 and NaN payloads carry no SQL meaning.
inline uint64_t canonical_double_bits(double v) {
  if (std::isnan(v)) return 0x7ff8000000000000ULL;
  if (v == 0.0) return 0;
  return std::bit_cast<uint64_t>(v);
}

/// A u32 length; throws std::length_error past 4 GiB.
inline void store_le32(char* p, size_t v) {
  if (v > std::numeric_limits<uint32_t>::max()) throw std::length_error("canonical encoding: payload over 4 GiB");
  const auto v32 = static_cast<uint32_t>(v);
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v32, 4);
  } else {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v32 >> (8 * i)) & 0xFF);
  }
}

}  // namespace hindsight::sig
