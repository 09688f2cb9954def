#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// Byte sink for column encoding (the cache writer hashes and writes what it receives).
using ByteSink = std::function<void(const void* data, size_t len)>;

/// Thrown by ByteCursor on reads past the end or malformed blocks; the cache reader turns it into "no cache".
struct CorruptData : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Bounds-checked little-endian reader over a byte range.
class ByteCursor {
 public:
  ByteCursor(const char* begin, const char* end) : p_(begin), end_(end) {}
  const char* take(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) throw CorruptData("truncated");
    const char* r = p_;
    p_ += n;
    return r;
  }
  template <typename T>
  T get() {
    T v;
    std::memcpy(&v, take(sizeof(T)), sizeof(T));
    return v;
  }
  bool at_end() const { return p_ == end_; }
  /// The next byte to read.
  const char* position() const { return p_; }

 private:
  const char* p_;
  const char* end_;
};

/// Compact encoding of one column of `rows` rows: null mask if any; int64 values frame-of-reference packed into
/// 0/1/2/4/8 bytes; doubles raw; strings dictionary-encoded when they have few distinct values, else lengths+bytes.
void encode_column(const ColumnVector& col, const ByteSink& out);

/// Decodes a column of `rows` rows written by encode_column into `col` (whose type is set). Throws CorruptData.
void decode_column(ByteCursor& in, size_t rows, ColumnVector& col);

}  // namespace hindsight
