#include "mapper/plan_mapper.hpp"

#include "mapper/mapper_export.hpp"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

namespace hindsight::mapper {
namespace {

const std::vector<std::string> kIntVarchar{"INT", "VARCHAR"};
const std::vector<std::string> kInt{"INT"};
const std::vector<std::string> kVarcharInt{"VARCHAR", "INT"};

std::string hex(char c) { return std::string(32, c); }

// Canonical partition: each entity's smallest group member. Equal vectors <=> equal partitions.
std::vector<EntityId> canonical_partition(const PlanMapper& m) {
  std::vector<EntityId> canon(m.size());
  for (EntityId id = 0; id < m.size(); ++id) canon[id] = m.smallest_member(id);
  return canon;
}

TEST(PlanMapperTest, LinksAreTransitive) {
  PlanMapper m;
  EntityId a = m.add(EntityKind::Ast, "a");
  EntityId b = m.add(EntityKind::Logical, "b");
  EntityId c = m.add(EntityKind::Physical, "c");
  EntityId d = m.add(EntityKind::Exec, "d");
  EXPECT_FALSE(m.same_group(a, c));
  EXPECT_EQ(m.link(a, b, "bind").outcome, LinkOutcome::Merged);
  EXPECT_EQ(m.link(b, c, "physical").outcome, LinkOutcome::Merged);
  EXPECT_TRUE(m.same_group(a, c));
  EXPECT_EQ(m.group_of(a), m.group_of(c));
  EXPECT_NE(m.group_of(a), m.group_of(d));
  EXPECT_EQ(m.link(c, a, "again").outcome, LinkOutcome::AlreadyGrouped);
  EXPECT_EQ(m.members(m.group_of(b)), (std::vector<EntityId>{a, b, c}));
  EXPECT_EQ(m.members(m.group_of(b), EntityKind::Physical), (std::vector<EntityId>{c}));
  EXPECT_EQ(m.group_count(), 2u);
  EXPECT_EQ(m.multi_member_groups(), (std::vector<GroupId>{m.group_of(a)}));
}

TEST(PlanMapperTest, GroupIdsAreDenseAndNumberedBySmallestMember) {
  PlanMapper m;
  for (int i = 0; i < 6; ++i) m.add(EntityKind::Logical, "n" + std::to_string(i));
  m.link(5, 3, "x");  // groups: {0} {1} {2} {3,5} {4}
  m.link(4, 1, "x");  // groups: {0} {1,4} {2} {3,5}
  EXPECT_EQ(m.groups(), (std::vector<GroupId>{0, 1, 2, 3}));
  EXPECT_EQ(m.group_of(0), 0u);
  EXPECT_EQ(m.group_of(4), 1u);
  EXPECT_EQ(m.group_of(2), 2u);
  EXPECT_EQ(m.group_of(5), 3u);
  EXPECT_EQ(m.multi_member_groups(), (std::vector<GroupId>{1, 3}));
  EXPECT_THROW(m.members(4), std::out_of_range);
  EXPECT_THROW(m.link(0, 6, "x"), std::out_of_range);
}

TEST(PlanMapperTest, MergingIsOrderIndependent) {
  std::mt19937 rng(42);
  constexpr EntityId kEntities = 300;
  std::vector<std::pair<EntityId, EntityId>> links;
  std::uniform_int_distribution<EntityId> pick(0, kEntities - 1);
  for (int i = 0; i < 220; ++i) links.emplace_back(pick(rng), pick(rng));

  auto run = [&](const std::vector<std::pair<EntityId, EntityId>>& order) {
    PlanMapper m;
    for (EntityId i = 0; i < kEntities; ++i) m.add(EntityKind::Logical, "n");
    for (auto [a, b] : order) EXPECT_TRUE(m.link(a, b, "rewrite").accepted());
    std::vector<std::vector<EntityId>> by_group;
    for (GroupId g : m.groups()) by_group.push_back(m.members(g));
    return std::make_pair(canonical_partition(m), by_group);
  };
  auto reference = run(links);
  // The random links must produce a non-trivial partition for the comparison to mean anything.
  std::vector<EntityId> roots = reference.first;
  std::sort(roots.begin(), roots.end());
  size_t distinct = std::unique(roots.begin(), roots.end()) - roots.begin();
  EXPECT_GT(distinct, 10u);
  EXPECT_LT(distinct, static_cast<size_t>(kEntities) - 100);
  for (int trial = 0; trial < 25; ++trial) {
    auto shuffled = links;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (auto& [a, b] : shuffled) {
      if (rng() % 2) std::swap(a, b);
    }
    EXPECT_EQ(run(shuffled), reference) << "trial " << trial;
  }
}

TEST(PlanMapperTest, SignaturesAreInternedByValue) {
  PlanMapper m;
  EntityId join1 = m.add(EntityKind::Logical, "Join (cte 1)", kIntVarchar);
  EntityId join2 = m.add(EntityKind::Logical, "Join (cte 2)", kIntVarchar);
  EntityId scan = m.add(EntityKind::Logical, "Scan", kIntVarchar);
  EntityId s1 = m.signature(hex('a'), "sig of cte");
  EntityId s1_again = m.signature(std::string(32, 'A'));
  EXPECT_EQ(s1, s1_again);
  EXPECT_EQ(m.entity(s1).signature_key, hex('a'));
  EXPECT_EQ(m.label(s1), "sig of cte");
  EXPECT_EQ(m.find_signature(hex('a')), s1);
  EXPECT_EQ(m.find_signature(hex('b')), std::nullopt);
  EntityId s2 = m.signature(hex('b'));
  EXPECT_NE(s1, s2);
  EXPECT_EQ(m.label(s2), "sig " + hex('b'));
  EXPECT_THROW(m.signature("xyz"), std::invalid_argument);
  EXPECT_THROW(m.signature(std::string(32, 'g')), std::invalid_argument);

  m.link(join1, m.signature(hex('a')), "signature");
  m.link(join2, m.signature(hex('a')), "signature");
  m.link(scan, m.signature(hex('b')), "signature");
  EXPECT_TRUE(m.same_group(join1, join2));
  EXPECT_FALSE(m.same_group(join1, scan));
  EXPECT_EQ(m.members(m.group_of(join1), EntityKind::Signature), (std::vector<EntityId>{s1}));
  EXPECT_EQ(m.size(), 5u);
}

TEST(PlanMapperTest, SchemaMismatchIsRefusedAndRecorded) {
  PlanMapper m;
  EntityId a = m.add(EntityKind::Logical, "Project a", kIntVarchar);
  EntityId b = m.add(EntityKind::Physical, "Project b", kInt);
  EntityId c = m.add(EntityKind::Physical, "Project c", kVarcharInt);
  LinkResult r = m.link(a, b, "physical");
  EXPECT_FALSE(r.accepted());
  EXPECT_EQ(r.outcome, LinkOutcome::Refused);
  ASSERT_TRUE(r.refused.has_value());
  EXPECT_EQ(r.refused->a, a);
  EXPECT_EQ(r.refused->b, b);
  EXPECT_EQ(r.refused->stage, "physical");
  EXPECT_NE(r.refused->reason.find("(INT, VARCHAR)"), std::string::npos) << r.refused->reason;
  EXPECT_NE(r.refused->reason.find("(INT)"), std::string::npos) << r.refused->reason;
  EXPECT_FALSE(m.same_group(a, b));
  // Same column count, different types: also a mismatch.
  EXPECT_FALSE(m.link(a, c, "rewrite:x").accepted());
  EXPECT_FALSE(m.same_group(a, c));
  ASSERT_EQ(m.refused_links().size(), 2u);
  EXPECT_EQ(m.refused_links()[1].stage, "rewrite:x");
  EXPECT_EQ(m.link_count(), 0u);
}

TEST(PlanMapperTest, StrictModeThrowsOnRefusal) {
  PlanMapper m;
  m.set_strict(true);
  EntityId a = m.add(EntityKind::Logical, "a", kIntVarchar);
  EntityId b = m.add(EntityKind::Logical, "b", kInt);
  EntityId c = m.add(EntityKind::Logical, "c", kIntVarchar);
  EXPECT_TRUE(m.link(a, c, "bind").accepted());
  try {
    m.link(a, b, "rewrite:merge");
    ADD_FAILURE() << "strict mode did not throw";
  } catch (const MapperConflict& e) {
    EXPECT_EQ(e.refused().stage, "rewrite:merge");
    EXPECT_NE(std::string(e.what()).find("(INT)"), std::string::npos);
  }
  EXPECT_FALSE(m.same_group(a, b));
  EXPECT_EQ(m.refused_links().size(), 1u);
}

TEST(PlanMapperTest, UnknownSchemaNeverConflicts) {
  PlanMapper m;
  EntityId a = m.add(EntityKind::Logical, "a", kIntVarchar);
  EntityId unknown = m.add(EntityKind::Ast, "ast");
  EntityId sig = m.signature(hex('c'));
  EntityId b = m.add(EntityKind::Logical, "b", kIntVarchar);
  EXPECT_TRUE(m.link(a, unknown, "bind").accepted());
  EXPECT_TRUE(m.link(unknown, sig, "signature").accepted());
  EXPECT_TRUE(m.link(sig, b, "signature").accepted());
  EXPECT_TRUE(m.same_group(a, b));
  EXPECT_TRUE(m.refused_links().empty());
  EXPECT_EQ(m.group_schema(m.group_of(unknown)), kIntVarchar);
}

TEST(PlanMapperTest, GroupSchemaPropagatesThroughUnions) {
  PlanMapper m;
  EntityId x = m.add(EntityKind::Ast, "x");
  EntityId a = m.add(EntityKind::Logical, "a", kIntVarchar);
  EntityId b = m.add(EntityKind::Physical, "b");
  EntityId c = m.add(EntityKind::Physical, "c", kInt);
  EXPECT_TRUE(m.group_schema(m.group_of(x)).empty());
  EXPECT_TRUE(m.link(x, b, "bind").accepted());  // unknown ~ unknown
  EXPECT_TRUE(m.link(a, b, "physical").accepted());
  EXPECT_EQ(m.group_schema(m.group_of(x)), kIntVarchar);
  // c's schema conflicts with a's, which b (and x) inherited through the union.
  LinkResult r = m.link(c, x, "exec");
  EXPECT_EQ(r.outcome, LinkOutcome::Refused);
  EXPECT_FALSE(m.same_group(c, b));
  EXPECT_EQ(m.group_schema(m.group_of(c)), kInt);
}

TEST(PlanMapperTest, LinksOfGroupKeepStageHistoryInOrder) {
  PlanMapper m;
  EntityId ast = m.add(EntityKind::Ast, "ast");
  EntityId log = m.add(EntityKind::Logical, "log");
  EntityId phys = m.add(EntityKind::Physical, "phys");
  EntityId other = m.add(EntityKind::Logical, "other");
  EntityId other2 = m.add(EntityKind::Logical, "other2");
  m.link(ast, log, "bind");
  m.link(other, other2, "rewrite:push_down_filters");
  m.link(log, phys, "physical");
  m.link(phys, ast, "bind");
  auto history = m.links_of(m.group_of(phys));
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(history[0].stage, "bind");
  EXPECT_EQ(history[1].stage, "physical");
  EXPECT_EQ(history[2].a, phys);
  EXPECT_EQ(m.stages_of(m.group_of(ast)), (std::vector<std::string>{"bind", "physical"}));
  EXPECT_EQ(m.stages_of(m.group_of(other)), (std::vector<std::string>{"rewrite:push_down_filters"}));
  EXPECT_EQ(m.links().size(), 4u);
}

// The planning path's registration API (add_numbered, add_with_types, signature(hi, lo), stage_id) is the same
// mapper as the text API: same labels once read, same interning, same schema checks.
TEST(PlanMapperTest, NumberedLabelsAreSpelledWhenRead) {
  PlanMapper m;
  EntityId a = m.add_numbered(EntityKind::Physical, "HashJoin", 12);
  EntityId b = m.add_numbered(EntityKind::Logical, "logical", 7, " (rewritten away)");
  EntityId c = m.add_numbered(EntityKind::Ast, "ast", -1);
  EXPECT_EQ(m.label(a), "HashJoin #12");
  EXPECT_EQ(m.entity(b).label, "logical #7 (rewritten away)");
  EXPECT_EQ(m.label(b), "logical #7 (rewritten away)");
  EXPECT_EQ(m.label(c), "ast #-1");
  EXPECT_EQ(m.kind(a), EntityKind::Physical);
  EXPECT_TRUE(m.schema(a).empty());
}

TEST(PlanMapperTest, SignatureBitsAndHexInternAsOneEntity) {
  PlanMapper m;
  const uint64_t hi = 0x0123456789abcdefULL, lo = 0xfedcba9876543210ULL;
  const std::string text = "0123456789abcdeffedcba9876543210";
  EntityId s = m.signature(hi, lo);
  EXPECT_EQ(m.signature(text), s);
  EXPECT_EQ(m.signature("0123456789ABCDEFFEDCBA9876543210"), s);
  EXPECT_EQ(m.signature(hi, lo, "join-set "), s);  // interned by value: the first label stays
  EXPECT_EQ(m.find_signature(text), s);
  EXPECT_EQ(m.entity(s).signature_key, text);
  EXPECT_EQ(m.label(s), "sig " + text);
  EntityId js = m.signature(lo, hi, "join-set ");
  EXPECT_NE(js, s);
  EXPECT_EQ(m.label(js), "join-set fedcba98765432100123456789abcdef");
  EXPECT_EQ(m.find_signature("fedcba98765432100123456789abcdef"), js);
  EXPECT_EQ(m.kind(js), EntityKind::Signature);
  // Many signatures (the table grows) stay interned and findable.
  std::vector<EntityId> ids;
  for (uint64_t i = 0; i < 500; ++i) ids.push_back(m.signature(i * 0x9E3779B97F4A7C15ULL, i));
  for (uint64_t i = 0; i < 500; ++i) EXPECT_EQ(m.signature(i * 0x9E3779B97F4A7C15ULL, i), ids[i]);
  EXPECT_EQ(m.size(), 502u);
}

TEST(PlanMapperTest, TypedSchemasBehaveLikeTextSchemas) {
  PlanMapper m;
  const PlanMapper::TypeNameId int_t = m.intern_type_name("INT"), varchar_t = m.intern_type_name("VARCHAR");
  EXPECT_EQ(m.intern_type_name("INT"), int_t);
  const std::vector<PlanMapper::TypeNameId> iv{int_t, varchar_t}, vi{varchar_t, int_t};
  EntityId text = m.add(EntityKind::Logical, "text", kIntVarchar);
  EntityId typed = m.add_with_types(EntityKind::Physical, "typed", iv);
  EntityId numbered = m.add_numbered(EntityKind::Physical, "Scan", 3, iv);
  EntityId swapped = m.add_numbered(EntityKind::Physical, "Scan", 4, vi);
  EXPECT_EQ(m.schema(typed), kIntVarchar);
  EXPECT_EQ(m.schema(swapped), kVarcharInt);
  EXPECT_TRUE(m.link(text, typed, "physical").accepted());
  EXPECT_TRUE(m.link(numbered, typed, "physical").accepted());
  LinkResult r = m.link(swapped, text, "physical");
  EXPECT_EQ(r.outcome, LinkOutcome::Refused);
  ASSERT_TRUE(r.refused.has_value());
  EXPECT_NE(r.refused->reason.find("(VARCHAR, INT)"), std::string::npos) << r.refused->reason;
  EXPECT_NE(r.refused->reason.find("Scan #4"), std::string::npos) << r.refused->reason;
  EXPECT_THROW(m.add_with_types(EntityKind::Logical, "bad", std::vector<PlanMapper::TypeNameId>{99}), std::out_of_range);
}

// Labels are built when first read: reading more of them must not move the text of one already read
// (a refusal reason formats two labels in one call).
TEST(PlanMapperTest, LabelReferencesStayValidAsMoreLabelsAreBuilt) {
  PlanMapper m;
  EntityId first = m.add_numbered(EntityKind::Logical, "Join", 1);
  const std::string& label = m.label(first);
  for (int i = 0; i < 1000; ++i) m.label(m.add_numbered(EntityKind::Physical, "Scan", i));
  EXPECT_EQ(label, "Join #1");
  EXPECT_EQ(m.label(m.add(EntityKind::Ast, "explicit")), "explicit");
  EXPECT_EQ(label, "Join #1");
}

// connect() is link() without the result object: the same outcomes, the refusal still recorded (and thrown when
// strict).
TEST(PlanMapperTest, ConnectRecordsWhatLinkRecords) {
  PlanMapper m;
  const PlanMapper::StageId stage = m.stage_id("physical");
  EntityId a = m.add(EntityKind::Logical, "a", kIntVarchar), b = m.add(EntityKind::Physical, "b", kIntVarchar);
  EntityId c = m.add(EntityKind::Physical, "c", kVarcharInt);
  EXPECT_EQ(m.connect(a, b, stage), LinkOutcome::Merged);
  EXPECT_EQ(m.connect(b, a, stage), LinkOutcome::AlreadyGrouped);
  EXPECT_EQ(m.connect(a, c, stage), LinkOutcome::Refused);
  ASSERT_EQ(m.refused_links().size(), 1u);
  EXPECT_EQ(m.refused_links()[0].stage, "physical");
  EXPECT_FALSE(m.same_group(a, c));
  EXPECT_EQ(m.link_count(), 2u);
  m.set_strict(true);
  EXPECT_THROW(m.connect(c, b, stage), MapperConflict);
  EXPECT_EQ(m.refused_links().size(), 2u);
}

// clear() keeps a small dictionary of type names and schemas, ids and all (dictionary() unchanged), and drops a large
// one (a new dictionary()); a moved-from mapper has a new, empty dictionary. Every mapper's dictionary() differs.
TEST(PlanMapperTest, ClearKeepsASmallDictionaryAndSaysWhenItDropsOne) {
  PlanMapper m;
  const PlanMapper::TypeNameId date = m.intern_type_name("DATE"), bigint = m.intern_type_name("BIGINT");
  const PlanMapper::TypeRun runs[] = {{bigint, 2}, {date, 1}};
  const PlanMapper::SchemaId schema = m.intern_schema_runs(runs);
  const uint64_t before = m.dictionary();
  m.add(EntityKind::Logical, "a", {"BIGINT"});
  m.clear();
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.dictionary(), before);
  EXPECT_EQ(m.intern_type_name("BIGINT"), bigint);
  EXPECT_EQ(m.intern_schema_runs(runs), schema);
  const EntityId e = m.add_numbered(EntityKind::Physical, "Scan", 1, schema);
  EXPECT_EQ(m.schema(e), (std::vector<std::string>{"BIGINT", "BIGINT", "DATE"}));

  for (size_t i = 0; i <= PlanMapper::kKeptTypeNames; ++i) m.intern_type_name("T" + std::to_string(i));
  m.clear();
  EXPECT_NE(m.dictionary(), before);
  EXPECT_EQ(m.intern_type_name("VARCHAR"), 0u);  // numbering starts again

  PlanMapper other;
  EXPECT_NE(other.dictionary(), m.dictionary());
  const uint64_t moved = m.dictionary();
  PlanMapper taker(std::move(m));
  EXPECT_EQ(taker.dictionary(), moved);
  EXPECT_NE(m.dictionary(), moved);  // NOLINT(bugprone-use-after-move): the moved-from state is what is tested
}

// connect_signatures (one call for all of a query's signature links, with a shortcut for a signature seen for the
// first time) makes the same groups, links, labels and refusals as connect() to signature() link by link: random
// entities of three schemas (or none), some grouped beforehand, linked to keys drawn from a small pool so that most
// keys repeat and some repeat across schemas (refused).
TEST(PlanMapperTest, ConnectSignaturesIsConnectToEachSignature) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    PlanMapper one, all;
    const PlanMapper::StageId stage_one = one.stage_id("signature"), stage_all = all.stage_id("signature");
    const std::vector<std::string>* schemas[] = {&kIntVarchar, &kInt, &kVarcharInt, nullptr};
    const int n = 40 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      const auto* schema = schemas[rng() % 4];
      const std::vector<std::string> types = schema ? *schema : std::vector<std::string>{};
      one.add(EntityKind::Physical, "op" + std::to_string(i), types);
      all.add(EntityKind::Physical, "op" + std::to_string(i), types);
    }
    for (int i = 0; i < n / 4; ++i) {  // earlier stages' links
      const auto a = static_cast<EntityId>(rng() % n), b = static_cast<EntityId>(rng() % n);
      one.link(a, b, "physical");
      all.link(a, b, "physical");
    }
    std::vector<PlanMapper::SignatureLink> links;
    for (int i = 0; i < 2 * n; ++i) {
      const uint64_t key = rng() % 12;
      links.push_back({static_cast<EntityId>(rng() % n), key * 0x9E3779B97F4A7C15ULL, key, i % 3 ? "sig " : "join-set ",
                       stage_all});
    }
    for (const auto& l : links) one.connect(l.entity, one.signature(l.hi, l.lo, l.label_prefix), stage_one);
    all.connect_signatures(links);
    ASSERT_EQ(all.size(), one.size());
    EXPECT_EQ(canonical_partition(all), canonical_partition(one));
    EXPECT_EQ(to_json(all).dump(), to_json(one).dump());  // entities, labels, groups, links, refusals
    ASSERT_EQ(all.refused_links().size(), one.refused_links().size());
    for (EntityId g = 0; g < all.group_count(); ++g) EXPECT_EQ(all.group_schema(g), one.group_schema(g));
  }
  // Strict mode: the refusal throws, as connect() does.
  PlanMapper strict;
  strict.set_strict(true);
  const PlanMapper::StageId stage = strict.stage_id("signature");
  EntityId a = strict.add(EntityKind::Physical, "a", kInt), b = strict.add(EntityKind::Physical, "b", kIntVarchar);
  const PlanMapper::SignatureLink both[] = {{a, 1, 2, "sig ", stage}, {b, 1, 2, "sig ", stage}};
  EXPECT_THROW(strict.connect_signatures(both), MapperConflict);
  EXPECT_EQ(strict.refused_links().size(), 1u);
  const size_t links = strict.link_count();
  EXPECT_NO_THROW(strict.connect_signatures(std::span(both, 1)));  // a and its signature are grouped already
  EXPECT_EQ(strict.link_count(), links + 1);
  const PlanMapper::SignatureLink unknown_entity[] = {{42, 3, 4, "sig ", stage}};
  EXPECT_THROW(strict.connect_signatures(unknown_entity), std::out_of_range);
  const PlanMapper::SignatureLink unknown_stage[] = {{a, 3, 4, "sig ", PlanMapper::StageId{9}}};
  EXPECT_THROW(strict.connect_signatures(unknown_stage), std::out_of_range);
}

// clear() leaves a mapper that behaves as a new one.
TEST(PlanMapperTest, ClearedMapperIsANewMapper) {
  auto fill = [](PlanMapper& m) {
    EntityId a = m.add(EntityKind::Logical, "a", kIntVarchar), b = m.add(EntityKind::Physical, "b", kVarcharInt);
    EntityId s = m.signature(1, 2), t = m.add_numbered(EntityKind::Logical, "Join", 3, " (x)");
    m.link(a, s, "signature");
    m.link(t, s, m.stage_id("signature"));
    m.link(a, b, "physical");  // refused: the schemas differ
    m.attach_stats(a, {7, true, "observed"});
    m.label(t);
    m.group_of(a);
  };
  PlanMapper fresh, reused;
  fill(fresh);
  reused.set_strict(true);
  EntityId x = reused.add(EntityKind::Ast, "x", {"DATE", "DATE", "BIGINT"});
  reused.link(x, reused.signature(1, 2), "bind");
  for (int i = 0; i < 100; ++i) reused.signature(static_cast<uint64_t>(i) * 7919, 5);
  reused.clear();
  EXPECT_FALSE(reused.strict());
  EXPECT_EQ(reused.size(), 0u);
  fill(reused);
  EXPECT_EQ(to_json(reused).dump(), to_json(fresh).dump());
  EXPECT_EQ(reused.refused_links().size(), 1u);
}

// Schemas are interned: equal type lists are one schema, whichever call registered them.
TEST(PlanMapperTest, EqualSchemasAreOneInternedSchema) {
  PlanMapper m;
  const PlanMapper::TypeNameId i = m.intern_type_name("INT"), v = m.intern_type_name("VARCHAR");
  const std::vector<PlanMapper::TypeNameId> iv{i, v}, vi{v, i};
  EXPECT_EQ(m.intern_schema(iv), m.intern_schema(iv));
  EXPECT_FALSE(m.intern_schema(iv) == m.intern_schema(vi));
  EXPECT_EQ(m.intern_schema({}), PlanMapper::kUnknownSchema);
  // Enough distinct schemas to grow the intern table several times; each still finds itself.
  std::vector<PlanMapper::SchemaId> ids;
  for (size_t n = 1; n <= 200; ++n) ids.push_back(m.intern_schema(std::vector<PlanMapper::TypeNameId>(n, i)));
  for (size_t n = 1; n <= 200; ++n) EXPECT_EQ(m.intern_schema(std::vector<PlanMapper::TypeNameId>(n, i)), ids[n - 1]);
  EntityId a = m.add_numbered(EntityKind::Logical, "A", 1, m.intern_schema(iv));
  EntityId b = m.add_with_types(EntityKind::Physical, "b", iv);
  EntityId c = m.add_with_schema(EntityKind::Physical, "c", m.intern_schema(vi));
  EXPECT_TRUE(m.link(a, b, "physical").accepted());
  EXPECT_EQ(m.link(a, c, "physical").outcome, LinkOutcome::Refused);
  EXPECT_THROW(m.add_with_schema(EntityKind::Logical, "bad", PlanMapper::SchemaId{9999}), std::out_of_range);
}

// A schema given as runs of one type is the schema of the list they spell out, however the runs are cut.
TEST(PlanMapperTest, SchemaRunsAreTheListTheySpell) {
  PlanMapper m;
  const PlanMapper::TypeNameId i = m.intern_type_name("INT"), v = m.intern_type_name("VARCHAR");
  using Run = PlanMapper::TypeRun;
  const PlanMapper::SchemaId iiv = m.intern_schema(std::vector<PlanMapper::TypeNameId>{i, i, v});
  EXPECT_EQ(m.intern_schema_runs(std::vector<Run>{{i, 2}, {v, 1}}), iiv);
  EXPECT_EQ(m.intern_schema_runs(std::vector<Run>{{i, 1}, {i, 1}, {v, 0}, {v, 1}}), iiv);  // cut and padded
  EXPECT_FALSE(m.intern_schema_runs(std::vector<Run>{{i, 1}, {v, 1}, {i, 1}}) == iiv);    // order counts
  EXPECT_FALSE(m.intern_schema_runs(std::vector<Run>{{i, 3}, {v, 1}}) == iiv);            // so do counts
  EXPECT_EQ(m.intern_schema_runs(std::vector<Run>{{i, 0}}), PlanMapper::kUnknownSchema);
  EXPECT_THROW(m.intern_schema_runs(std::vector<Run>{{7, 1}}), std::out_of_range);
  // The text of a schema made from runs lists every column.
  EntityId e = m.add_with_schema(EntityKind::Logical, "e", m.intern_schema_runs(std::vector<Run>{{v, 1}, {i, 3}}));
  EXPECT_EQ(m.schema(e), (std::vector<std::string>{"VARCHAR", "INT", "INT", "INT"}));
}

TEST(PlanMapperTest, StageIdsRecordTheirStage) {
  PlanMapper m;
  EntityId a = m.add(EntityKind::Ast, "a"), b = m.add(EntityKind::Logical, "b"), c = m.add(EntityKind::Physical, "c");
  const PlanMapper::StageId bind = m.stage_id("bind");
  EXPECT_EQ(m.stage_id("bind"), bind);
  EXPECT_TRUE(m.link(a, b, bind).accepted());
  EXPECT_TRUE(m.link(b, c, m.stage_id("physical")).accepted());
  EXPECT_TRUE(m.link(c, a, "bind").accepted());
  auto links = m.links();
  ASSERT_EQ(links.size(), 3u);
  EXPECT_EQ(links[0].stage, "bind");
  EXPECT_EQ(links[1].stage, "physical");
  EXPECT_EQ(links[2].stage, "bind");
  EXPECT_EQ(m.stages_of(m.group_of(a)), (std::vector<std::string>{"bind", "physical"}));
  EXPECT_THROW(m.link(a, b, PlanMapper::StageId{42}), std::out_of_range);
  EXPECT_THROW(m.link(a, 9, bind), std::out_of_range);
}

}  // namespace
}  // namespace hindsight::mapper
