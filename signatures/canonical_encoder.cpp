#include "signatures/canonical_encoder.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace hindsight::sig {
namespace {

void put_u64(std::string& out, uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  out.append(b, 8);
}

void put_u32(std::string& out, size_t v) {
  if (v > std::numeric_limits<uint32_t>::max()) throw std::length_error("CanonicalEncoder: payload over 4 GiB");
  char b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  out.append(b, 4);
}

void put_bytes(std::string& out, char tag, std::string_view bytes) {
  out.push_back(tag);
  put_u32(out, bytes.size());
  out.append(bytes);
}

// One bit pattern per value: -0.0 == 0.0 and NaN payloads carry no SQL meaning.
uint64_t canonical_double_bits(double v) {
  if (std::isnan(v)) return 0x7ff8000000000000ULL;
  if (v == 0.0) return 0;
  return std::bit_cast<uint64_t>(v);
}

void put_i64_token(std::string& out, int64_t v) {
  out.push_back('I');
  put_u64(out, static_cast<uint64_t>(v));
}

void put_f64_token(std::string& out, double v) {
  out.push_back('D');
  put_u64(out, canonical_double_bits(v));
}

void put_bool_token(std::string& out, bool v) {
  out.push_back('B');
  out.push_back(v ? 1 : 0);
}

[[noreturn]] void misuse(const char* what) { throw std::logic_error(std::string("CanonicalEncoder: ") + what); }

}  // namespace

CanonicalEncoder::CanonicalEncoder(Mode mode) : mode_(mode) { frames_.emplace_back(); }

void CanonicalEncoder::clear() {
  depth_ = 0;
  frames_[0].buf.clear();
  frames_[0].pending_field = false;
}

const std::string& CanonicalEncoder::bytes() const {
  if (depth_ != 0) misuse("bytes() while a list or set is open");
  if (frames_[0].pending_field) misuse("bytes() after field() without a value");
  return frames_[0].buf;
}

void CanonicalEncoder::value_done() {
  Frame& f = top();
  f.pending_field = false;
  if (f.kind == FrameKind::Set) {
    f.elements.push_back(std::move(f.buf));
    f.buf.clear();
  }
}

CanonicalEncoder& CanonicalEncoder::begin(std::string_view kind) {
  Frame& f = top();
  if (f.kind == FrameKind::Set) misuse("begin(kind) directly inside a set; wrap the record in a list");
  if (f.pending_field) misuse("begin(kind) after field(); a key names a value");
  put_bytes(f.buf, 'K', kind);
  return *this;
}

CanonicalEncoder& CanonicalEncoder::field(std::string_view key) {
  Frame& f = top();
  if (f.pending_field) misuse("two field() calls in a row");
  put_bytes(f.buf, 'F', key);
  f.pending_field = true;
  return *this;
}

CanonicalEncoder& CanonicalEncoder::str(std::string_view value) {
  put_bytes(top().buf, 'S', value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::i64(int64_t value) {
  put_i64_token(top().buf, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::f64(double value) {
  put_f64_token(top().buf, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::boolean(bool value) {
  put_bool_token(top().buf, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::null() {
  top().buf.push_back('N');
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::sig(const Signature& value) {
  std::string& out = top().buf;
  out.push_back('G');
  put_u64(out, value.hi);
  put_u64(out, value.lo);
  value_done();
  return *this;
}

void CanonicalEncoder::push_frame(FrameKind kind) {
  ++depth_;
  if (depth_ == frames_.size()) frames_.emplace_back();
  Frame& f = frames_[depth_];
  f.kind = kind;
  f.buf.clear();
  f.elements.clear();
  f.pending_field = false;
}

CanonicalEncoder& CanonicalEncoder::begin_list() {
  push_frame(FrameKind::List);
  return *this;
}

CanonicalEncoder& CanonicalEncoder::end_list() {
  const Frame& inner = top();
  if (inner.kind != FrameKind::List) misuse("end_list() without a matching begin_list()");
  if (inner.pending_field) misuse("end_list() after field() without a value");
  --depth_;
  put_bytes(top().buf, 'L', inner.buf);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::begin_set() {
  push_frame(FrameKind::Set);
  return *this;
}

CanonicalEncoder& CanonicalEncoder::end_set() {
  Frame& inner = top();
  if (inner.kind != FrameKind::Set) misuse("end_set() without a matching begin_set()");
  if (inner.pending_field || !inner.buf.empty()) misuse("end_set() after field() without a value");
  std::vector<std::string>& elems = inner.elements;
  // std::string compares through char_traits<char>, which orders bytes as unsigned char on every platform.
  std::sort(elems.begin(), elems.end());
  elems.erase(std::unique(elems.begin(), elems.end()), elems.end());
  --depth_;
  std::string& out = top().buf;
  out.push_back('T');
  put_u32(out, elems.size());
  for (const std::string& e : elems) {
    put_u32(out, e.size());
    out.append(e);
  }
  value_done();
  return *this;
}

void CanonicalEncoder::write_constant_header(std::string_view type_tag) {
  put_bytes(top().buf, mode_ == Mode::Exact ? 'C' : '?', type_tag);
}

CanonicalEncoder& CanonicalEncoder::constant_i64(std::string_view type_tag, int64_t value) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) put_i64_token(top().buf, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::constant_f64(std::string_view type_tag, double value) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) put_f64_token(top().buf, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::constant_bool(std::string_view type_tag, bool value) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) put_bool_token(top().buf, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::constant_str(std::string_view type_tag, std::string_view value) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) put_bytes(top().buf, 'S', value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::constant_null(std::string_view type_tag) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) top().buf.push_back('N');
  value_done();
  return *this;
}

}  // namespace hindsight::sig
