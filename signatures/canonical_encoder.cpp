#include "signatures/canonical_encoder.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace hindsight::sig {
namespace {

inline void le64(char* p, uint64_t v) { store_le64(p, v); }
inline void le32(char* p, size_t v) { store_le32(p, v); }

// tag + u32 length + bytes, in one grow
template <class Buf>
inline void put_bytes(Buf& out, char tag, std::string_view bytes) {
  char* p = out.grow(5 + bytes.size());
  p[0] = tag;
  le32(p + 1, bytes.size());
  ByteBuffer::copy_bytes(p + 5, bytes.data(), bytes.size());
}

// tag + 8 bytes
template <class Buf>
inline void put_tag_u64(Buf& out, char tag, uint64_t v) {
  char* p = out.grow(9);
  p[0] = tag;
  le64(p + 1, v);
}


template <class Buf>
inline void put_i64_token(Buf& out, int64_t v) { put_tag_u64(out, 'I', static_cast<uint64_t>(v)); }

template <class Buf>
inline void put_f64_token(Buf& out, double v) { put_tag_u64(out, 'D', canonical_double_bits(v)); }

template <class Buf>
inline void put_bool_token(Buf& out, bool v) {
  char* p = out.grow(2);
  p[0] = 'B';
  p[1] = static_cast<char>(v ? 1 : 0);
}

[[noreturn]] void misuse(const char* what) { throw std::logic_error(std::string("CanonicalEncoder: ") + what); }

}  // namespace

CanonicalEncoder::CanonicalEncoder(Mode mode) : mode_(mode) {
  frames_.push_back(Frame{FrameKind::Root, false, kRootBuffer, 0});
  retarget();
}

CanonicalEncoder::CanonicalEncoder(const CanonicalEncoder& o)
    : mode_(o.mode_), frames_(o.frames_), sets_(o.sets_), open_sets_(o.open_sets_), root_(o.root_) {
  retarget();
}

CanonicalEncoder& CanonicalEncoder::operator=(const CanonicalEncoder& o) {
  if (this != &o) {
    mode_ = o.mode_;
    frames_ = o.frames_;
    sets_ = o.sets_;
    open_sets_ = o.open_sets_;
    root_ = o.root_;
    retarget();
  }
  return *this;
}

CanonicalEncoder::CanonicalEncoder(CanonicalEncoder&& o) noexcept
    : mode_(o.mode_), frames_(std::move(o.frames_)), sets_(std::move(o.sets_)), open_sets_(o.open_sets_),
      root_(std::move(o.root_)) {
  retarget();
  o.frames_.assign(1, Frame{FrameKind::Root, false, kRootBuffer, 0});
  o.open_sets_ = 0;
  o.retarget();
}

CanonicalEncoder& CanonicalEncoder::operator=(CanonicalEncoder&& o) noexcept {
  if (this != &o) {
    mode_ = o.mode_;
    frames_ = std::move(o.frames_);
    sets_ = std::move(o.sets_);
    open_sets_ = o.open_sets_;
    root_ = std::move(o.root_);
    retarget();
    o.frames_.assign(1, Frame{FrameKind::Root, false, kRootBuffer, 0});
    o.open_sets_ = 0;
    o.retarget();
  }
  return *this;
}

void CanonicalEncoder::retarget() {
  top_ = &frames_.back();
  out_ = &out(*top_);
}

void CanonicalEncoder::clear() {
  frames_.resize(1);
  frames_[0].pending_field = false;
  open_sets_ = 0;
  root_.clear();
  retarget();
}

void CanonicalEncoder::check_complete() const {
  if (frames_.size() != 1) misuse("bytes() while a list or set is open");
  if (frames_[0].pending_field) misuse("bytes() after field() without a value");
}

const std::string& CanonicalEncoder::bytes() const {
  check_complete();
  bytes_.assign(root_.data() ? root_.data() : "", root_.size());
  return bytes_;
}

std::string_view CanonicalEncoder::view() const {
  check_complete();
  return root_.size() ? std::string_view(root_.data(), root_.size()) : std::string_view();
}

inline void CanonicalEncoder::value_done() {
  Frame& f = *top_;
  f.pending_field = false;
  if (f.kind == FrameKind::Set) [[unlikely]] set_element_done(f);
}

void CanonicalEncoder::set_element_done(Frame& f) {
  // The element written since the mark is complete.
  SetState& st = sets_[f.set];
  const size_t end = st.bytes.size();
  if (end > std::numeric_limits<uint32_t>::max()) throw std::length_error("CanonicalEncoder: set over 4 GiB");
  st.elements.push_back(ElementSpan{static_cast<uint32_t>(st.mark), static_cast<uint32_t>(end - st.mark)});
  st.mark = end;
}

CanonicalEncoder& CanonicalEncoder::begin(std::string_view kind) {
  Frame& f = *top_;
  if (f.kind == FrameKind::Set) misuse("begin(kind) directly inside a set; wrap the record in a list");
  if (f.pending_field) misuse("begin(kind) after field(); a key names a value");
  put_bytes(*out_, 'K', kind);
  return *this;
}

CanonicalEncoder& CanonicalEncoder::field(std::string_view key) {
  Frame& f = *top_;
  if (f.pending_field) misuse("two field() calls in a row");
  put_bytes(*out_, 'F', key);
  f.pending_field = true;
  return *this;
}

CanonicalEncoder& CanonicalEncoder::str(std::string_view value) {
  put_bytes(*out_, 'S', value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::i64(int64_t value) {
  put_i64_token(*out_, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::f64(double value) {
  put_f64_token(*out_, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::boolean(bool value) {
  put_bool_token(*out_, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::null() {
  *out_->grow(1) = 'N';
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::sig(const Signature& value) {
  char* p = out_->grow(17);
  p[0] = 'G';
  le64(p + 1, value.hi);
  le64(p + 9, value.lo);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::begin_list() {
  const uint32_t buffer = top_->set;
  const size_t header = out_->size();
  char* p = out_->grow(5);  // 'L' + the length, patched in by end_list
  p[0] = 'L';
  frames_.push_back(Frame{FrameKind::List, false, buffer, header});
  top_ = &frames_.back();  // same buffer
  return *this;
}

CanonicalEncoder& CanonicalEncoder::end_list() {
  const Frame& inner = *top_;
  if (inner.kind != FrameKind::List) misuse("end_list() without a matching begin_list()");
  if (inner.pending_field) misuse("end_list() after field() without a value");
  le32(out_->data() + inner.header + 1, out_->size() - inner.header - 5);
  frames_.pop_back();
  top_ = &frames_.back();  // same buffer
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::begin_set() {
  if (open_sets_ == sets_.size()) sets_.emplace_back();
  SetState& st = sets_[open_sets_];
  st.bytes.clear();
  st.elements.clear();
  st.mark = 0;
  frames_.push_back(Frame{FrameKind::Set, false, open_sets_, 0});
  ++open_sets_;
  retarget();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::end_set() {
  const Frame inner = *top_;
  if (inner.kind != FrameKind::Set) misuse("end_set() without a matching begin_set()");
  SetState& st = sets_[inner.set];
  if (inner.pending_field || st.bytes.size() != st.mark) misuse("end_set() after field() without a value");
  std::vector<ElementSpan>& elems = st.elements;
  const char* base = st.bytes.data();
  auto view = [base](const ElementSpan& e) { return std::string_view(base + e.offset, e.size); };
  // string_view compares through char_traits<char>, which orders bytes as unsigned char on every platform.
  std::sort(elems.begin(), elems.end(), [&](const ElementSpan& a, const ElementSpan& b) { return view(a) < view(b); });
  elems.erase(std::unique(elems.begin(), elems.end(),
                          [&](const ElementSpan& a, const ElementSpan& b) { return view(a) == view(b); }),
              elems.end());
  frames_.pop_back();
  --open_sets_;
  retarget();
  Buffer& o = *out_;
  char* p = o.grow(5);
  p[0] = 'T';
  le32(p + 1, elems.size());
  for (const ElementSpan& e : elems) {
    char* q = o.grow(4 + e.size);
    le32(q, e.size);
    if (e.size) std::memcpy(q + 4, base + e.offset, e.size);
  }
  value_done();
  return *this;
}

void CanonicalEncoder::write_constant_header(std::string_view type_tag) {
  put_bytes(*out_, mode_ == Mode::Exact ? 'C' : '?', type_tag);
}

CanonicalEncoder& CanonicalEncoder::constant_i64(std::string_view type_tag, int64_t value) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) put_i64_token(*out_, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::constant_f64(std::string_view type_tag, double value) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) put_f64_token(*out_, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::constant_bool(std::string_view type_tag, bool value) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) put_bool_token(*out_, value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::constant_str(std::string_view type_tag, std::string_view value) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) put_bytes(*out_, 'S', value);
  value_done();
  return *this;
}

CanonicalEncoder& CanonicalEncoder::constant_null(std::string_view type_tag) {
  write_constant_header(type_tag);
  if (mode_ == Mode::Exact) *out_->grow(1) = 'N';
  value_done();
  return *this;
}

}  // namespace hindsight::sig
