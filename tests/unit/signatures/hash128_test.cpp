#include "signatures/hash128.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include <xxhash.h>

#include "signatures/canonical_encoder.hpp"

namespace hindsight::sig {
namespace {

// Golden values: a change of seed, algorithm or tree layout must fail here (and bump SIGNATURE_VERSION).
TEST(Hash128Test, GoldenValueIsPinned) {
  EXPECT_EQ(hash128("hindsight").hex(), "93b67e8f09ea603d60853163b1acd487");
  EXPECT_EQ(hash128("").hex(), "d0f503063effeae6c1ec98da705d4ea8");
  EXPECT_EQ(HASH128_SEED, 0x48494E4453494748ULL);
  EXPECT_EQ(SIGNATURE_VERSION, 1u);
}

// The library really is the specified XXH3-128 (reference value of `xxhsum -H2` on empty input, seed 0).
TEST(Hash128Test, LibraryMatchesXxh3ReferenceVector) {
  const XXH128_hash_t h = XXH3_128bits(nullptr, 0);
  EXPECT_EQ(h.high64, 0x99aa06d3014798d8ULL);
  EXPECT_EQ(h.low64, 0x6001c324468d497fULL);
}

TEST(Hash128Test, TreeSignatureGoldenValueIsPinned) {
  CanonicalEncoder e;
  e.begin("scan").field("table").str("nation");
  Signature leaf = tree_signature(e.bytes(), {});
  EXPECT_EQ(leaf.hex(), "e746cd076cd62d583408e55068b7a24b");
  EXPECT_EQ(join_set_signature({leaf, leaf}, {"p"}).hex(), "51eb912f948f4bf8042895d2ed0a5ab3");
}

TEST(Hash128Test, DistinguishesInputsAndIsDeterministic) {
  EXPECT_EQ(hash128("abc"), hash128(std::string("abc")));
  EXPECT_NE(hash128("abc"), hash128("abd"));
  EXPECT_NE(hash128(""), hash128(std::string_view("\0", 1)));
  EXPECT_NE(hash128("hindsight"), Signature{});
}

Signature leaf(std::string_view table) {
  CanonicalEncoder e;
  e.begin("scan").field("table").str(table);
  return tree_signature(e.bytes(), {});
}

TEST(TreeSignatureTest, DependsOnFormAndEveryChildInOrder) {
  Signature a = leaf("a"), b = leaf("b"), c = leaf("c");
  Signature base = tree_signature("join", {a, b});
  EXPECT_EQ(base, tree_signature("join", {a, b}));
  EXPECT_NE(base, tree_signature("join", {b, a}));  // left and right are different roles
  EXPECT_NE(base, tree_signature("join", {a, c}));
  EXPECT_NE(base, tree_signature("join", {c, b}));
  EXPECT_NE(base, tree_signature("join", {a}));
  EXPECT_NE(base, tree_signature("join", {a, b, b}));
  EXPECT_NE(base, tree_signature("join2", {a, b}));
  EXPECT_NE(tree_signature("x", {}), hash128("x"));  // the version and layout are part of the hash
}

TEST(TreeSignatureTest, ChangesWithTheVersion) {
  Signature a = leaf("a");
  // Rebuild the documented layout by hand: equal under the current version, different under any other.
  auto with_version = [&](int64_t version) {
    CanonicalEncoder e;
    e.begin("tree").field("version").i64(version).field("form").str("filter");
    e.field("children").begin_list().sig(a).end_list();
    return hash128(e.bytes());
  };
  EXPECT_EQ(tree_signature("filter", {a}), with_version(SIGNATURE_VERSION));
  EXPECT_NE(tree_signature("filter", {a}), with_version(SIGNATURE_VERSION + 1));
  EXPECT_NE(tree_signature("filter", {a}), with_version(0));
}

TEST(TreeSignatureTest, ChildChangeDeepInTheTreePropagates) {
  Signature s1 = tree_signature("agg", {tree_signature("filter", {leaf("orders")})});
  Signature s2 = tree_signature("agg", {tree_signature("filter", {leaf("order")})});
  EXPECT_NE(s1, s2);
}

TEST(TreeSignatureTest, TemplateSignatureIgnoresLiteralsOnly) {
  auto sign = [](CanonicalEncoder::Mode mode, int64_t literal, std::string_view table) {
    CanonicalEncoder e(mode);
    e.begin("filter").field("pred").begin_list().str("<").str(table).constant("int", literal).end_list();
    return tree_signature(e.bytes(), {leaf(table)});
  };
  using M = CanonicalEncoder::Mode;
  EXPECT_NE(sign(M::Exact, 1, "t"), sign(M::Exact, 2, "t"));
  EXPECT_EQ(sign(M::Template, 1, "t"), sign(M::Template, 2, "t"));
  EXPECT_NE(sign(M::Template, 1, "t"), sign(M::Template, 1, "u"));
  EXPECT_NE(sign(M::Template, 1, "t"), sign(M::Exact, 1, "t"));
}

TEST(JoinSetSignatureTest, EqualForEveryPermutationOfInputs) {
  std::vector<Signature> inputs = {leaf("a"), leaf("b"), leaf("c"), leaf("d"), leaf("e")};
  std::vector<std::string> preds = {"a.x=b.x", "b.y=c.y", "c.z=d.z", "d.w=e.w"};
  std::sort(inputs.begin(), inputs.end());
  const Signature expected = join_set_signature(inputs, preds);
  int permutations = 0;
  do {
    EXPECT_EQ(join_set_signature(inputs, preds), expected);
    ++permutations;
  } while (std::next_permutation(inputs.begin(), inputs.end()));
  EXPECT_EQ(permutations, 120);
}

TEST(JoinSetSignatureTest, EqualForShuffledAndRepeatedPredicates) {
  std::vector<Signature> inputs = {leaf("a"), leaf("b"), leaf("c")};
  std::vector<std::string> preds = {"a.x=b.x", "b.y=c.y", "a.k=c.k", "a.v<c.v", "b.q=c.q"};
  const Signature expected = join_set_signature(inputs, preds);
  std::mt19937 rng(42);
  std::set<std::vector<std::string>> orders_seen;
  for (int i = 0; i < 20; ++i) {
    std::vector<std::string> shuffled = preds;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    orders_seen.insert(shuffled);
    EXPECT_EQ(join_set_signature(inputs, shuffled), expected);
  }
  EXPECT_GT(orders_seen.size(), 10u);  // the shuffles really did reorder
  std::vector<std::string> repeated = preds;
  repeated.push_back(preds[2]);
  EXPECT_EQ(join_set_signature(inputs, repeated), expected);  // a predicate set: duplicates collapse
}

TEST(JoinSetSignatureTest, DuplicatedInputIsASelfJoinNotTheSameSet) {
  Signature a = leaf("a"), b = leaf("b");
  EXPECT_NE(join_set_signature({a, a}, {}), join_set_signature({a}, {}));
  EXPECT_NE(join_set_signature({a, a, b}, {"p"}), join_set_signature({a, b}, {"p"}));
  EXPECT_NE(join_set_signature({a, a, b}, {"p"}), join_set_signature({a, b, b}, {"p"}));
  EXPECT_EQ(join_set_signature({a, b, a}, {"p"}), join_set_signature({b, a, a}, {"p"}));
}

TEST(JoinSetSignatureTest, DependsOnInputsAndPredicates) {
  Signature a = leaf("a"), b = leaf("b"), c = leaf("c");
  Signature base = join_set_signature({a, b}, {"a.x=b.x"});
  EXPECT_NE(base, join_set_signature({a, c}, {"a.x=b.x"}));
  EXPECT_NE(base, join_set_signature({a, b}, {"a.x=b.y"}));
  EXPECT_NE(base, join_set_signature({a, b}, {}));
  EXPECT_NE(base, join_set_signature({a, b}, {"a.x=b.x", "a.y=b.y"}));
  // Predicate boundaries are unambiguous.
  EXPECT_NE(join_set_signature({a, b}, {"ab", "c"}), join_set_signature({a, b}, {"a", "bc"}));
  // A join set is never a tree signature over the same children.
  EXPECT_NE(base, tree_signature("a.x=b.x", {a, b}));
}

}  // namespace
}  // namespace hindsight::sig
