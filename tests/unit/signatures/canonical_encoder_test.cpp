#include "signatures/canonical_encoder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace hindsight::sig {
namespace {

using Mode = CanonicalEncoder::Mode;

std::string hex_bytes(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 0xF]);
  }
  return out;
}

TEST(CanonicalEncoderTest, GoldenBytesPinTheFormat) {
  CanonicalEncoder e;
  e.begin("k").field("f").i64(1).str("ab").boolean(true).null().f64(0.0);
  EXPECT_EQ(hex_bytes(e.bytes()),
            "4b010000006b"                  // K len=1 "k"
            "460100000066"                  // F len=1 "f"
            "490100000000000000"            // I 1
            "53020000006162"                // S len=2 "ab"
            "4201"                          // B true
            "4e"                            // N
            "440000000000000000");          // D 0.0
  CanonicalEncoder l;
  l.begin_list().i64(-1).end_list().begin_set().str("b").str("a").end_set().sig(Signature{1, 2});
  EXPECT_EQ(hex_bytes(l.bytes()),
            "4c09000000" "49ffffffffffffffff"                       // L len=9 [I -1]
            "5402000000" "0600000053010000006106000000530100000062"  // T count=2 {S "a", S "b"}
            "4701000000000000000200000000000000");                  // G hi=1 lo=2
}

TEST(CanonicalEncoderTest, StringBoundariesAreUnambiguous) {
  CanonicalEncoder a, b, c;
  a.str("ab").str("c");
  b.str("a").str("bc");
  c.str("abc");
  EXPECT_NE(a.bytes(), b.bytes());
  EXPECT_NE(a.bytes(), c.bytes());
  CanonicalEncoder k1, k2;
  k1.begin("ab").field("c").str("x");
  k2.begin("a").field("bc").str("x");
  EXPECT_NE(k1.bytes(), k2.bytes());
}

TEST(CanonicalEncoderTest, TypesAreDistinguished) {
  auto one = [](auto write) {
    CanonicalEncoder e;
    write(e);
    return e.bytes();
  };
  std::vector<std::string> all = {
      one([](CanonicalEncoder& e) { e.i64(1); }),
      one([](CanonicalEncoder& e) { e.str("1"); }),
      one([](CanonicalEncoder& e) { e.f64(1.0); }),
      one([](CanonicalEncoder& e) { e.boolean(true); }),
      one([](CanonicalEncoder& e) { e.null(); }),
      one([](CanonicalEncoder& e) { e.begin("1"); }),
      one([](CanonicalEncoder& e) { e.field("1").null(); }),
      one([](CanonicalEncoder& e) { e.constant("int", 1); }),
      one([](CanonicalEncoder& e) { e.constant("bigint", 1); }),
      one([](CanonicalEncoder& e) { e.begin_list().i64(1).end_list(); }),
      one([](CanonicalEncoder& e) { e.begin_set().i64(1).end_set(); }),
      one([](CanonicalEncoder& e) { e.sig(Signature{0, 1}); }),
  };
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i + 1; j < all.size(); ++j) EXPECT_NE(all[i], all[j]) << i << " vs " << j;
}

TEST(CanonicalEncoderTest, FieldNamesBelongToTheEncoding) {
  CanonicalEncoder a, b, c;
  a.field("limit").i64(10);
  b.field("offset").i64(10);
  c.i64(10);
  EXPECT_NE(a.bytes(), b.bytes());
  EXPECT_NE(a.bytes(), c.bytes());
}

TEST(CanonicalEncoderTest, ListIsOrderedAndKeepsDuplicates) {
  CanonicalEncoder a, b, c;
  a.begin_list().i64(1).i64(2).end_list();
  b.begin_list().i64(2).i64(1).end_list();
  c.begin_list().i64(1).i64(2).i64(2).end_list();
  EXPECT_NE(a.bytes(), b.bytes());
  EXPECT_NE(a.bytes(), c.bytes());
}

TEST(CanonicalEncoderTest, ListNestingIsUnambiguous) {
  CanonicalEncoder a, b, c;
  a.begin_list().i64(1).end_list().begin_list().i64(2).end_list();  // [1][2]
  b.begin_list().i64(1).i64(2).end_list();                          // [1 2]
  c.begin_list().begin_list().i64(1).end_list().i64(2).end_list();  // [[1] 2]
  EXPECT_NE(a.bytes(), b.bytes());
  EXPECT_NE(b.bytes(), c.bytes());
  EXPECT_NE(a.bytes(), c.bytes());
}

TEST(CanonicalEncoderTest, SetIsOrderIndependentAndDeduplicated) {
  CanonicalEncoder a, b, c, d;
  a.begin_set().str("x").i64(3).str("y").end_set();
  b.begin_set().str("y").str("x").i64(3).end_set();
  c.begin_set().str("y").str("x").i64(3).str("x").i64(3).end_set();
  d.begin_set().str("x").str("y").end_set();
  EXPECT_EQ(a.bytes(), b.bytes());
  EXPECT_EQ(a.bytes(), c.bytes());
  EXPECT_NE(a.bytes(), d.bytes());
}

TEST(CanonicalEncoderTest, ListAndSetDiffer) {
  CanonicalEncoder list, set, empty_list, empty_set;
  list.begin_list().i64(1).i64(2).end_list();
  set.begin_set().i64(1).i64(2).end_set();
  empty_list.begin_list().end_list();
  empty_set.begin_set().end_set();
  EXPECT_NE(list.bytes(), set.bytes());
  EXPECT_NE(empty_list.bytes(), empty_set.bytes());
}

TEST(CanonicalEncoderTest, SetElementsCarryTheirFieldKey) {
  CanonicalEncoder a, b, c;
  a.begin_set().field("l").i64(1).field("r").i64(2).end_set();
  b.begin_set().field("r").i64(2).field("l").i64(1).end_set();
  c.begin_set().field("l").i64(2).field("r").i64(1).end_set();
  EXPECT_EQ(a.bytes(), b.bytes());
  EXPECT_NE(a.bytes(), c.bytes());
}

TEST(CanonicalEncoderTest, NestedSetsOfListsAreCanonical) {
  // {{[a b] [c]} {[d]}} written in different orders; inner lists keep their order.
  auto write = [](CanonicalEncoder& e, bool swap_outer, bool swap_inner) {
    auto first = [&] {
      e.begin_set();
      auto ab = [&] { e.begin_list().str("a").str("b").end_list(); };
      auto c = [&] { e.begin_list().str("c").end_list(); };
      if (swap_inner) { c(); ab(); ab(); } else { ab(); c(); }
      e.end_set();
    };
    auto second = [&] { e.begin_set().begin_list().str("d").end_list().end_set(); };
    e.begin_set();
    if (swap_outer) { second(); first(); } else { first(); second(); }
    e.end_set();
  };
  CanonicalEncoder a, b, c, d;
  write(a, false, false);
  write(b, true, false);
  write(c, false, true);
  write(d, true, true);
  EXPECT_EQ(a.bytes(), b.bytes());
  EXPECT_EQ(a.bytes(), c.bytes());
  EXPECT_EQ(a.bytes(), d.bytes());

  CanonicalEncoder ba;  // inner list order matters
  ba.begin_set().begin_set().begin_list().str("b").str("a").end_list().begin_list().str("c").end_list().end_set();
  ba.begin_set().begin_list().str("d").end_list().end_set().end_set();
  EXPECT_NE(a.bytes(), ba.bytes());

  CanonicalEncoder flat;  // flattening the nesting is a different value
  flat.begin_set().begin_list().str("a").str("b").end_list().begin_list().str("c").end_list();
  flat.begin_list().str("d").end_list().end_set();
  EXPECT_NE(a.bytes(), flat.bytes());
}

TEST(CanonicalEncoderTest, DoublesAreNormalized) {
  auto enc = [](double v) {
    CanonicalEncoder e;
    e.f64(v);
    return e.bytes();
  };
  EXPECT_EQ(enc(-0.0), enc(0.0));
  EXPECT_EQ(enc(std::numeric_limits<double>::quiet_NaN()), enc(-std::numeric_limits<double>::quiet_NaN()));
  EXPECT_EQ(enc(std::numeric_limits<double>::quiet_NaN()), enc(std::numeric_limits<double>::signaling_NaN()));
  EXPECT_EQ(enc(std::nan("1")), enc(std::nan("2")));
  EXPECT_NE(enc(1.0), enc(-1.0));
  EXPECT_NE(enc(0.1), enc(std::nextafter(0.1, 1.0)));
  EXPECT_NE(enc(std::numeric_limits<double>::infinity()), enc(std::numeric_limits<double>::quiet_NaN()));
}

TEST(CanonicalEncoderTest, TemplateModeHidesConstantsButKeepsTypes) {
  auto form = [](Mode mode, int64_t n, std::string_view s) {
    CanonicalEncoder e(mode);
    e.begin("filter").field("pred").begin_list().str("=").str("t.a").constant("int", n).end_list();
    e.field("name").constant("varchar", s);
    return e.bytes();
  };
  EXPECT_NE(form(Mode::Exact, 1, "x"), form(Mode::Exact, 2, "x"));
  EXPECT_NE(form(Mode::Exact, 1, "x"), form(Mode::Exact, 1, "y"));
  EXPECT_EQ(form(Mode::Template, 1, "x"), form(Mode::Template, 2, "y"));
  EXPECT_NE(form(Mode::Template, 1, "x"), form(Mode::Exact, 1, "x"));

  CanonicalEncoder i(Mode::Template), s(Mode::Template), d(Mode::Template), b(Mode::Template);
  i.constant("int", 5);
  s.constant("varchar", "5");
  d.constant("double", 5.0);
  b.constant("bool", true);
  EXPECT_NE(i.bytes(), s.bytes());
  EXPECT_NE(i.bytes(), d.bytes());
  EXPECT_NE(i.bytes(), b.bytes());
  EXPECT_EQ(hex_bytes(i.bytes()), "3f03000000696e74");  // '?' len=3 "int"
}

TEST(CanonicalEncoderTest, TemplateModeKeepsStructuralValues) {
  CanonicalEncoder a(Mode::Template), b(Mode::Template);
  a.begin("scan").field("table").str("orders").field("limit").i64(10);
  b.begin("scan").field("table").str("lineitem").field("limit").i64(10);
  EXPECT_NE(a.bytes(), b.bytes());
}

TEST(CanonicalEncoderTest, TemplateInListsCollapseInSets) {
  auto in_list = [](Mode mode, std::vector<int64_t> values) {
    CanonicalEncoder e(mode);
    e.begin_set();
    for (int64_t v : values) e.constant("int", v);
    e.end_set();
    return e.bytes();
  };
  EXPECT_EQ(in_list(Mode::Exact, {3, 1, 2}), in_list(Mode::Exact, {1, 2, 3, 2}));
  EXPECT_NE(in_list(Mode::Exact, {1, 2}), in_list(Mode::Exact, {1, 2, 3}));
  EXPECT_EQ(in_list(Mode::Template, {1, 2}), in_list(Mode::Template, {4, 5, 6}));
}

TEST(CanonicalEncoderTest, ConstantOverloadsPickTheRightType) {
  CanonicalEncoder lit, view, boolean, integer, narrow, null;
  lit.constant("t", "abc");
  view.constant("t", std::string_view("abc"));
  boolean.constant("t", true);
  integer.constant("t", int64_t{1});
  narrow.constant("t", 1);
  null.constant_null("t");
  EXPECT_EQ(lit.bytes(), view.bytes());
  EXPECT_NE(lit.bytes(), boolean.bytes());  // a string literal must not decay to bool
  EXPECT_NE(boolean.bytes(), integer.bytes());
  EXPECT_EQ(integer.bytes(), narrow.bytes());
  EXPECT_NE(null.bytes(), integer.bytes());
}

TEST(CanonicalEncoderTest, MisuseThrows) {
  EXPECT_THROW(CanonicalEncoder().begin_list().bytes(), std::logic_error);
  EXPECT_THROW(CanonicalEncoder().end_list(), std::logic_error);
  EXPECT_THROW(CanonicalEncoder().begin_set().end_list(), std::logic_error);
  EXPECT_THROW(CanonicalEncoder().begin_list().end_set(), std::logic_error);
  EXPECT_THROW(CanonicalEncoder().field("a").field("b"), std::logic_error);
  EXPECT_THROW(CanonicalEncoder().field("a").bytes(), std::logic_error);
  EXPECT_THROW(CanonicalEncoder().begin_set().field("a").end_set(), std::logic_error);
  EXPECT_THROW(CanonicalEncoder().begin_list().field("a").end_list(), std::logic_error);
  EXPECT_THROW(CanonicalEncoder().begin_set().begin("k"), std::logic_error);
  EXPECT_NO_THROW(CanonicalEncoder().begin_set().begin_list().begin("k").end_list().end_set().bytes());
}

TEST(CanonicalEncoderTest, ClearAllowsReuse) {
  CanonicalEncoder e, fresh;
  e.begin("a").begin_list().begin_set().i64(1).end_set().end_list();
  e.clear();
  e.begin("b").begin_set().i64(2).end_set();
  fresh.begin("b").begin_set().i64(2).end_set();
  EXPECT_EQ(e.bytes(), fresh.bytes());
  e.clear();
  e.begin_list();
  e.clear();  // clearing with an open list resets it too
  EXPECT_EQ(e.bytes(), "");
}

TEST(CanonicalEncoderTest, ViewIsTheBytesAndCopiesAreIndependent) {
  CanonicalEncoder e;
  e.begin("k").field("f").begin_list().str("a");
  EXPECT_THROW(e.view(), std::logic_error);  // same checks as bytes()
  CanonicalEncoder copy = e;                 // copied with a list open
  e.str("b").end_list();
  copy.str("b").end_list();
  EXPECT_EQ(e.view(), std::string_view(e.bytes()));
  EXPECT_EQ(copy.bytes(), e.bytes());
  copy.begin_set().i64(2).i64(1).end_set();
  EXPECT_NE(copy.bytes(), e.bytes());
  CanonicalEncoder fresh;
  fresh.begin("k").field("f").begin_list().str("a").str("b").end_list().begin_set().i64(1).i64(2).end_set();
  EXPECT_EQ(copy.bytes(), fresh.bytes());
  CanonicalEncoder moved = std::move(copy);
  EXPECT_EQ(moved.bytes(), fresh.bytes());
  moved.i64(3);
  EXPECT_NE(moved.bytes(), fresh.bytes());
  copy.clear();  // a moved-from encoder is empty and usable
  copy.str("x");
  CanonicalEncoder x;
  x.str("x");
  EXPECT_EQ(copy.bytes(), x.bytes());
}

TEST(CanonicalEncoderTest, LongAndNestedValuesKeepTheFormat) {
  // Lengths of every size class the writer copies differently (0..3, 4..7, 8..16, longer).
  for (size_t n : {0u, 1u, 3u, 4u, 7u, 8u, 12u, 16u, 17u, 100u, 5000u}) {
    const std::string v(n, 'q');
    CanonicalEncoder e;
    e.str(v);
    std::string expected = "S";
    for (int i = 0; i < 4; ++i) expected.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
    expected += v;
    EXPECT_EQ(e.bytes(), expected) << n;
  }
  // A set inside a list inside a set: inner lists are length-prefixed in place.
  CanonicalEncoder a, b;
  a.begin_set().begin_list().i64(1).begin_set().str("z").str("y").end_set().end_list().begin_list().end_list().end_set();
  b.begin_set().begin_list().end_list().begin_list().i64(1).begin_set().str("y").str("z").str("y").end_set().end_list().end_set();
  EXPECT_EQ(a.bytes(), b.bytes());
  EXPECT_EQ(hex_bytes(CanonicalEncoder().begin_list().begin_list().end_list().end_list().bytes()), "4c05000000" "4c00000000");
}

}  // namespace
}  // namespace hindsight::sig
