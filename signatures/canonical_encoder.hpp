#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "signatures/byte_buffer.hpp"
#include "signatures/signature.hpp"

namespace hindsight::sig {

/// Builds the canonical byte string of one operator (or expression) from typed tokens. Plan nodes write their
/// semantic parameters into it; the bytes feed `tree_signature` (hash128.hpp).
///
/// Byte format (unchanged since SIGNATURE_VERSION 1). Every token is one tag byte followed by a payload whose length is fixed by
/// the tag or given by a u32 prefix, so a token sequence parses back in exactly one way (the encoding is
/// injective: two different token sequences never produce the same bytes). Integers are little-endian,
/// fixed width; `u32` lengths count bytes unless said otherwise.
///
///   tag  token                  payload
///   'K'  begin(kind)            u32 length + kind bytes
///   'F'  field(key)             u32 length + key bytes (names the value that follows)
///   'S'  str(v)                 u32 length + bytes
///   'I'  i64(v)                 8 bytes, two's complement
///   'D'  f64(v)                 8 bytes, IEEE-754 bits; -0.0 is written as 0.0, every NaN as 0x7ff8000000000000
///   'B'  boolean(v)             1 byte, 0 or 1
///   'N'  null()                 none
///   'G'  sig(s)                 16 bytes: s.hi then s.lo, each 8 bytes
///   'L'  begin_list..end_list   u32 byte length + the element tokens in the order written
///   'T'  begin_set..end_set     u32 element count + per element (u32 length + element bytes); elements sorted
///                               bytewise (unsigned) ascending, duplicates removed
///   'C'  constant, Exact mode   u32 length + type tag, then the value token ('S', 'I', 'D', 'B' or 'N')
///   '?'  constant, Template     u32 length + type tag (the value is dropped: a typed placeholder)
///
/// An element of a set is one value: a scalar, a signature, a constant or a whole nested list or set, together
/// with the field(key) written just before it, if any. To put a multi-token record (e.g. an expression with its
/// own kind) into a set, wrap it in a list. Misuse (begin(kind) directly inside a set, two keys in a row,
/// unbalanced lists/sets, bytes() while one is open) throws std::logic_error.
///
/// Template mode differs from Exact mode only in `constant(...)`: recurring queries with new literals get the
/// same template bytes, while `str`/`i64`/... (structural values such as table names, limits the caller does not
/// mark as constants) are written in both modes. In a set, placeholders of one type collapse into one element.
class CanonicalEncoder {
 public:
  enum class Mode { Exact, Template };

  /// The mode is fixed for the lifetime of the encoder.
  explicit CanonicalEncoder(Mode mode = Mode::Exact);
  CanonicalEncoder(const CanonicalEncoder& o);
  CanonicalEncoder& operator=(const CanonicalEncoder& o);
  CanonicalEncoder(CanonicalEncoder&& o) noexcept;
  CanonicalEncoder& operator=(CanonicalEncoder&& o) noexcept;

  Mode mode() const { return mode_; }

  /// Starts a node of the given kind (operator or expression name).
  CanonicalEncoder& begin(std::string_view kind);
  /// Names the next value.
  CanonicalEncoder& field(std::string_view key);

  CanonicalEncoder& str(std::string_view value);
  CanonicalEncoder& i64(int64_t value);
  CanonicalEncoder& f64(double value);
  CanonicalEncoder& boolean(bool value);
  CanonicalEncoder& null();
  CanonicalEncoder& sig(const Signature& value);

  /// An ordered sequence of values.
  CanonicalEncoder& begin_list();
  CanonicalEncoder& end_list();
  /// An unordered set of values: order-independent and duplicate-free (conjunctions, IN lists, join inputs).
  CanonicalEncoder& begin_set();
  CanonicalEncoder& end_set();

  /// A literal of SQL type `type_tag`: written with its value in Exact mode, as a typed placeholder in Template
  /// mode. Accepts integers, floating point, bool and strings; use constant_null for a NULL literal.
  template <typename T>
  CanonicalEncoder& constant(std::string_view type_tag, const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      return constant_bool(type_tag, value);
    } else if constexpr (std::is_integral_v<T>) {
      static_assert(sizeof(T) <= sizeof(int64_t));
      return constant_i64(type_tag, static_cast<int64_t>(value));
    } else if constexpr (std::is_floating_point_v<T>) {
      return constant_f64(type_tag, static_cast<double>(value));
    } else {
      static_assert(std::is_convertible_v<const T&, std::string_view>, "unsupported constant type");
      return constant_str(type_tag, std::string_view(value));
    }
  }
  CanonicalEncoder& constant_i64(std::string_view type_tag, int64_t value);
  CanonicalEncoder& constant_f64(std::string_view type_tag, double value);
  CanonicalEncoder& constant_bool(std::string_view type_tag, bool value);
  CanonicalEncoder& constant_str(std::string_view type_tag, std::string_view value);
  CanonicalEncoder& constant_null(std::string_view type_tag);

  /// The canonical bytes written so far. Throws std::logic_error while a list/set is open or a key is pending.
  /// (A copy kept inside the encoder: prefer view() on hot paths.)
  const std::string& bytes() const;
  /// The same bytes without a copy; valid until the next write or clear(). Same checks as bytes().
  std::string_view view() const;
  /// Forgets everything written (keeps the mode and the allocated buffers, for reuse in hot loops).
  void clear();

 private:
  using Buffer = ByteBuffer;

  enum class FrameKind : uint8_t { Root, List, Set };
  struct ElementSpan {
    uint32_t offset, size;  // into SetState::bytes
  };
  // An open set: its completed elements back to back (spans) and the one being written after `mark`.
  struct SetState {
    Buffer bytes;
    std::vector<ElementSpan> elements;
    size_t mark = 0;
  };
  // Lists write straight into their parent's buffer (the length is patched in at end_list); sets write their
  // elements into their own buffer and sort them at end_set. Buffers are kept across clear() for reuse.
  struct Frame {
    FrameKind kind;
    bool pending_field;
    uint32_t set;   // Set: index into sets_; List/Root: the buffer written to (kRootBuffer or a set index)
    size_t header;  // List: position of its 'L' tag in that buffer
  };
  static constexpr uint32_t kRootBuffer = UINT32_MAX;

  Buffer& out(const Frame& f) { return f.set == kRootBuffer ? root_ : sets_[f.set].bytes; }
  /// Points top_/out_ at the innermost frame and the buffer it writes to (after a push or pop).
  void retarget();
  void value_done();
  void set_element_done(Frame& f);
  void write_constant_header(std::string_view type_tag);
  void check_complete() const;

  Mode mode_;
  std::vector<Frame> frames_;  // frames_[0] is the root
  std::vector<SetState> sets_;  // by set nesting depth; kept for their buffers
  uint32_t open_sets_ = 0;
  Buffer root_;
  Frame* top_ = nullptr;  // &frames_.back()
  Buffer* out_ = nullptr;  // where top_ writes
  mutable std::string bytes_;
};

}  // namespace hindsight::sig
