#include "signatures/token_writer.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "signatures/canonical_encoder.hpp"
#include "signatures/hash128.hpp"

namespace hindsight::sig {
namespace {

// TokenWriter must write exactly what CanonicalEncoder writes for the same token sequence: the
// plan signer's signatures are defined by the CanonicalEncoder format.

TEST(TokenWriterTest, ScalarsAndConstantsMatchTheEncoder) {
  for (auto mode : {CanonicalEncoder::Mode::Exact, CanonicalEncoder::Mode::Template}) {
    CanonicalEncoder e(mode);
    TokenWriter w(mode == CanonicalEncoder::Mode::Exact ? TokenWriter::Mode::Exact : TokenWriter::Mode::Template);
    const Signature s{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
    e.begin("call").field("op").str("=").field("n").i64(-42).field("b").boolean(true).field("z").null().field("s").sig(s);
    w.begin("call").field("op").str("=").field("n").i64(-42).field("b").boolean(true).field("z").null().field("s").sig(s);
    e.field("c1").constant_i64("integer", 7).field("c2").constant_f64("double", -0.0);
    w.field("c1").constant_i64("integer", 7).field("c2").constant_f64("double", -0.0);
    e.field("c3").constant_str("varchar", "ASIA").field("c4").constant_null("date");
    w.field("c3").constant_str("varchar", "ASIA").field("c4").constant_null("date");
    e.field("empty").str("").field("long").str(std::string(300, 'x'));
    w.field("empty").str("").field("long").str(std::string(300, 'x'));
    EXPECT_EQ(w.view(), e.view());
  }
}

TEST(TokenWriterTest, ListsAndSetsMatchTheEncoder) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    CanonicalEncoder e;
    TokenWriter w;
    // Digests drawn from a small pool, so sets get duplicates.
    std::vector<Signature> pool;
    for (int i = 0; i < 5; ++i) pool.push_back(hash128(std::to_string(rng() % 1000)));
    auto pick = [&] { return pool[rng() % pool.size()]; };
    const size_t n = rng() % 7, m = rng() % 5;

    e.begin("node").field("list").begin_list();
    size_t list = w.begin("node").field("list").begin_list();
    for (size_t i = 0; i < n; ++i) {
      Signature s = pick();
      e.begin_list().sig(s).boolean(i % 2 == 0).end_list();
      size_t item = w.begin_list();
      w.sig(s).boolean(i % 2 == 0).end_list(item);
    }
    e.end_list();
    w.end_list(list);

    e.field("set").begin_set();
    size_t set = w.field("set").begin_set();
    for (size_t i = 0; i < n; ++i) {
      Signature s = pick();
      e.sig(s);
      w.sig(s);
    }
    e.end_set();
    w.end_set(set, TokenWriter::kSigToken);

    e.field("pairs").begin_set();
    size_t pairs = w.field("pairs").begin_set();
    for (size_t i = 0; i < m; ++i) {
      Signature a = pick(), b = pick();
      e.begin_list().sig(a).sig(b).end_list();
      size_t item = w.begin_list();
      w.sig(a).sig(b).end_list(item);
    }
    e.end_set();
    w.end_set(pairs, TokenWriter::kSigPairToken);
    EXPECT_EQ(w.view(), e.view()) << "round " << round;
  }
}

TEST(TokenWriterTest, ClearStartsOver) {
  TokenWriter w;
  w.begin("a").str("x");
  w.clear();
  CanonicalEncoder e;
  e.begin("b");
  w.begin("b");
  EXPECT_EQ(w.view(), e.view());
}

}  // namespace
}  // namespace hindsight::sig
