#include "planner/storage/column_codec.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace hindsight {

namespace {

constexpr size_t kMaxDictionary = 4096;

template <typename T>
void put(const ByteSink& out, T v) {
  out(&v, sizeof v);
}

template <typename U>
void pack(const int64_t* v, size_t n, int64_t lo, char* dst) {
  for (size_t k = 0; k < n; ++k) {
    auto d = static_cast<U>(static_cast<uint64_t>(v[k]) - static_cast<uint64_t>(lo));
    std::memcpy(dst + k * sizeof(U), &d, sizeof(U));  // little-endian host
  }
}

/// Frame of reference: min, then each value - min in `width` bytes (0 when all values are equal).
void encode_ints(const int64_t* v, size_t n, const ByteSink& out) {
  int64_t lo = n ? *std::min_element(v, v + n) : 0;
  int64_t hi = n ? *std::max_element(v, v + n) : 0;
  uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  uint8_t width = range == 0 ? 0 : range <= 0xFF ? 1 : range <= 0xFFFF ? 2 : range <= 0xFFFFFFFFULL ? 4 : 8;
  put(out, lo);
  put(out, width);
  if (width == 0) return;
  char chunk[1 << 16];
  size_t per_chunk = sizeof chunk / width;
  for (size_t i = 0; i < n; i += per_chunk) {
    size_t m = std::min(per_chunk, n - i);
    switch (width) {
      case 1:
        pack<uint8_t>(v + i, m, lo, chunk);
        break;
      case 2:
        pack<uint16_t>(v + i, m, lo, chunk);
        break;
      case 4:
        pack<uint32_t>(v + i, m, lo, chunk);
        break;
      default:
        pack<uint64_t>(v + i, m, lo, chunk);
        break;
    }
    out(chunk, m * width);
  }
}

template <typename U>
void unpack(const char* src, size_t n, int64_t lo, int64_t* dst) {
  for (size_t i = 0; i < n; ++i) {
    U d;
    std::memcpy(&d, src + i * sizeof(U), sizeof(U));
    dst[i] = static_cast<int64_t>(static_cast<uint64_t>(lo) + d);
  }
}

void decode_ints(ByteCursor& in, size_t n, int64_t* dst) {
  int64_t lo = in.get<int64_t>();
  uint8_t width = in.get<uint8_t>();
  switch (width) {
    case 0:
      std::fill(dst, dst + n, lo);
      break;
    case 1:
      unpack<uint8_t>(in.take(n), n, lo, dst);
      break;
    case 2:
      unpack<uint16_t>(in.take(n * 2), n, lo, dst);
      break;
    case 4:
      unpack<uint32_t>(in.take(n * 4), n, lo, dst);
      break;
    case 8:
      unpack<uint64_t>(in.take(n * 8), n, lo, dst);
      break;
    default:
      throw CorruptData("bad int width");
  }
}

void encode_strings(const std::vector<std::string>& strs, const ByteSink& out) {
  size_t n = strs.size();
  std::unordered_map<std::string_view, uint32_t> dict;
  std::vector<std::string_view> entries;
  std::vector<int64_t> codes;
  bool use_dict = n >= 16;
  if (use_dict) {
    codes.resize(n);
    for (size_t i = 0; i < n; ++i) {
      auto [it, fresh] = dict.try_emplace(strs[i], static_cast<uint32_t>(entries.size()));
      if (fresh) entries.push_back(strs[i]);
      if (entries.size() > kMaxDictionary || entries.size() * 4 > n) {
        use_dict = false;
        break;
      }
      codes[i] = it->second;
    }
  }
  auto put_plain = [&](const std::string_view* v, size_t count) {
    std::vector<int64_t> lens(count);
    uint64_t total = 0;
    for (size_t i = 0; i < count; ++i) total += lens[i] = static_cast<int64_t>(v[i].size());
    encode_ints(lens.data(), count, out);
    put(out, total);
    for (size_t i = 0; i < count; ++i) out(v[i].data(), v[i].size());
  };
  put(out, static_cast<uint8_t>(use_dict ? 1 : 0));
  if (use_dict) {
    put(out, static_cast<uint32_t>(entries.size()));
    put_plain(entries.data(), entries.size());
    encode_ints(codes.data(), n, out);
  } else {
    std::vector<std::string_view> views(strs.begin(), strs.end());
    put_plain(views.data(), n);
  }
}

/// Reads `count` length-prefixed strings; calls emit(ptr, len) for each.
template <typename Emit>
void decode_plain(ByteCursor& in, size_t count, Emit emit) {
  std::vector<int64_t> lens(count);
  decode_ints(in, count, lens.data());
  uint64_t total = in.get<uint64_t>();
  uint64_t sum = 0;
  for (int64_t l : lens) {
    if (l < 0) throw CorruptData("negative length");
    sum += static_cast<uint64_t>(l);
  }
  if (sum != total) throw CorruptData("string lengths do not add up");
  const char* bytes = in.take(total);
  for (size_t i = 0; i < count; ++i) {
    emit(bytes, static_cast<size_t>(lens[i]));
    bytes += lens[i];
  }
}

void decode_strings(ByteCursor& in, size_t n, std::vector<std::string>& strs) {
  uint8_t mode = in.get<uint8_t>();
  strs.clear();
  strs.reserve(n);
  if (mode == 0) {
    decode_plain(in, n, [&](const char* p, size_t len) { strs.emplace_back(p, len); });
    return;
  }
  if (mode != 1) throw CorruptData("bad string mode");
  uint32_t entries = in.get<uint32_t>();
  if (entries > kMaxDictionary) throw CorruptData("dictionary too large");
  std::vector<std::string> dict;
  dict.reserve(entries);
  decode_plain(in, entries, [&](const char* p, size_t len) { dict.emplace_back(p, len); });
  std::vector<int64_t> codes(n);
  decode_ints(in, n, codes.data());
  for (int64_t c : codes) {
    if (c < 0 || static_cast<uint64_t>(c) >= dict.size()) throw CorruptData("bad dictionary code");
    strs.push_back(dict[static_cast<size_t>(c)]);
  }
}

}  // namespace

void encode_column(const ColumnVector& col, const ByteSink& out) {
  size_t n = col.size();
  put(out, static_cast<uint8_t>(col.has_nulls() ? 1 : 0));
  if (col.has_nulls()) out(col.nulls.data(), n);
  switch (col.type.physical()) {
    case PhysicalKind::Int64:
      encode_ints(col.ints.data(), n, out);
      break;
    case PhysicalKind::Double:
      out(col.dbls.data(), n * sizeof(double));
      break;
    case PhysicalKind::String:
      encode_strings(col.strs, out);
      break;
  }
}

void decode_column(ByteCursor& in, size_t rows, ColumnVector& col) {
  uint8_t has_nulls = in.get<uint8_t>();
  if (has_nulls > 1) throw CorruptData("bad null flag");
  col.nulls.clear();
  if (has_nulls) {
    const char* mask = in.take(rows);
    col.nulls.assign(reinterpret_cast<const uint8_t*>(mask), reinterpret_cast<const uint8_t*>(mask) + rows);
  }
  switch (col.type.physical()) {
    case PhysicalKind::Int64:
      col.ints.resize(rows);
      decode_ints(in, rows, col.ints.data());
      break;
    case PhysicalKind::Double:
      col.dbls.resize(rows);
      if (rows) std::memcpy(col.dbls.data(), in.take(rows * sizeof(double)), rows * sizeof(double));
      break;
    case PhysicalKind::String:
      decode_strings(in, rows, col.strs);
      break;
  }
}

}  // namespace hindsight
