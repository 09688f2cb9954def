#include "mapper/plan_mapper.hpp"

#include "mapper/mapper_export.hpp"
#include "tests/unit/mapper/schema_builder.hpp"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

namespace hindsight::mapper {
namespace {

const std::vector<std::string> kIntVarchar{"INT", "VARCHAR"};
const std::vector<std::string> kInt{"INT"};
const std::vector<std::string> kVarcharInt{"VARCHAR", "INT"};

std::string hex(char c) { return std::string(32, c); }

// The Signature entity of a key given as 32 hex digits (any case).
EntityId signature(PlanMapper& m, std::string_view hex, const char* label_prefix = "sig ") {
  return m.signature(std::stoull(std::string(hex.substr(0, 16)), nullptr, 16),
                     std::stoull(std::string(hex.substr(16, 16)), nullptr, 16), label_prefix);
}

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
  EXPECT_EQ(m.link(a, b, m.stage_id("bind")), LinkOutcome::Merged);
  EXPECT_EQ(m.link(b, c, m.stage_id("physical")), LinkOutcome::Merged);
  EXPECT_TRUE(m.same_group(a, c));
  EXPECT_EQ(m.group_of(a), m.group_of(c));
  EXPECT_NE(m.group_of(a), m.group_of(d));
  EXPECT_EQ(m.link(c, a, m.stage_id("again")), LinkOutcome::AlreadyGrouped);
  EXPECT_EQ(m.members(m.group_of(b)), (std::vector<EntityId>{a, b, c}));
  EXPECT_EQ(m.members(m.group_of(b), EntityKind::Physical), (std::vector<EntityId>{c}));
  EXPECT_EQ(m.group_count(), 2u);
  EXPECT_EQ(m.multi_member_groups(), (std::vector<GroupId>{m.group_of(a)}));
}

TEST(PlanMapperTest, GroupIdsAreDenseAndNumberedBySmallestMember) {
  PlanMapper m;
  for (int i = 0; i < 6; ++i) m.add(EntityKind::Logical, "n" + std::to_string(i));
  m.link(5, 3, m.stage_id("x"));  // groups: {0} {1} {2} {3,5} {4}
  m.link(4, 1, m.stage_id("x"));  // groups: {0} {1,4} {2} {3,5}
  EXPECT_EQ(m.groups(), (std::vector<GroupId>{0, 1, 2, 3}));
  EXPECT_EQ(m.group_of(0), 0u);
  EXPECT_EQ(m.group_of(4), 1u);
  EXPECT_EQ(m.group_of(2), 2u);
  EXPECT_EQ(m.group_of(5), 3u);
  EXPECT_EQ(m.multi_member_groups(), (std::vector<GroupId>{1, 3}));
  EXPECT_THROW(m.members(4), std::out_of_range);
  EXPECT_THROW(m.link(0, 6, m.stage_id("x")), std::out_of_range);
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
    for (auto [a, b] : order) EXPECT_NE(m.link(a, b, m.stage_id("rewrite")), LinkOutcome::Refused);
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
  EntityId join1 = m.add(EntityKind::Logical, "Join (cte 1)", types(m, kIntVarchar));
  EntityId join2 = m.add(EntityKind::Logical, "Join (cte 2)", types(m, kIntVarchar));
  EntityId scan = m.add(EntityKind::Logical, "Scan", types(m, kIntVarchar));
  EntityId s1 = signature(m, hex('a'), "sig of cte ");
  EntityId s1_again = signature(m, std::string(32, 'A'));
  EXPECT_EQ(s1, s1_again);
  EXPECT_EQ(m.entity(s1).signature_key, hex('a'));
  EXPECT_EQ(m.label(s1), "sig of cte " + hex('a'));  // the first label stays
  EXPECT_EQ(m.find_signature(hex('a')), s1);
  EXPECT_EQ(m.find_signature(hex('b')), std::nullopt);
  EntityId s2 = signature(m, hex('b'));
  EXPECT_NE(s1, s2);
  EXPECT_EQ(m.label(s2), "sig " + hex('b'));
  EXPECT_THROW(m.find_signature("xyz"), std::invalid_argument);
  EXPECT_THROW(m.find_signature(std::string(32, 'g')), std::invalid_argument);

  m.link(join1, signature(m, hex('a')), m.stage_id("signature"));
  m.link(join2, signature(m, hex('a')), m.stage_id("signature"));
  m.link(scan, signature(m, hex('b')), m.stage_id("signature"));
  EXPECT_TRUE(m.same_group(join1, join2));
  EXPECT_FALSE(m.same_group(join1, scan));
  EXPECT_EQ(m.members(m.group_of(join1), EntityKind::Signature), (std::vector<EntityId>{s1}));
  EXPECT_EQ(m.size(), 5u);
}

TEST(PlanMapperTest, SchemaMismatchIsRefusedAndRecorded) {
  PlanMapper m;
  EntityId a = m.add(EntityKind::Logical, "Project a", types(m, kIntVarchar));
  EntityId b = m.add(EntityKind::Physical, "Project b", types(m, kInt));
  EntityId c = m.add(EntityKind::Physical, "Project c", types(m, kVarcharInt));
  EXPECT_EQ(m.link(a, b, m.stage_id("physical")), LinkOutcome::Refused);
  ASSERT_EQ(m.refused_links().size(), 1u);
  const RefusedLink r = m.refused_links().back();
  EXPECT_EQ(r.a, a);
  EXPECT_EQ(r.b, b);
  EXPECT_EQ(r.stage, "physical");
  EXPECT_NE(r.reason.find("(INT, VARCHAR)"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("(INT)"), std::string::npos) << r.reason;
  EXPECT_FALSE(m.same_group(a, b));
  // Same column count, different types: also a mismatch.
  EXPECT_EQ(m.link(a, c, m.stage_id("rewrite:x")), LinkOutcome::Refused);
  EXPECT_FALSE(m.same_group(a, c));
  ASSERT_EQ(m.refused_links().size(), 2u);
  EXPECT_EQ(m.refused_links()[1].stage, "rewrite:x");
  EXPECT_EQ(m.link_count(), 0u);
}

TEST(PlanMapperTest, StrictModeThrowsOnRefusal) {
  PlanMapper m;
  m.set_strict(true);
  EntityId a = m.add(EntityKind::Logical, "a", types(m, kIntVarchar));
  EntityId b = m.add(EntityKind::Logical, "b", types(m, kInt));
  EntityId c = m.add(EntityKind::Logical, "c", types(m, kIntVarchar));
  EXPECT_NE(m.link(a, c, m.stage_id("bind")), LinkOutcome::Refused);
  try {
    m.link(a, b, m.stage_id("rewrite:merge"));
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
  EntityId a = m.add(EntityKind::Logical, "a", types(m, kIntVarchar));
  EntityId unknown = m.add(EntityKind::Ast, "ast");
  EntityId sig = signature(m, hex('c'));
  EntityId b = m.add(EntityKind::Logical, "b", types(m, kIntVarchar));
  EXPECT_NE(m.link(a, unknown, m.stage_id("bind")), LinkOutcome::Refused);
  EXPECT_NE(m.link(unknown, sig, m.stage_id("signature")), LinkOutcome::Refused);
  EXPECT_NE(m.link(sig, b, m.stage_id("signature")), LinkOutcome::Refused);
  EXPECT_TRUE(m.same_group(a, b));
  EXPECT_TRUE(m.refused_links().empty());
  EXPECT_EQ(m.group_schema(m.group_of(unknown)), kIntVarchar);
}

TEST(PlanMapperTest, GroupSchemaPropagatesThroughUnions) {
  PlanMapper m;
  EntityId x = m.add(EntityKind::Ast, "x");
  EntityId a = m.add(EntityKind::Logical, "a", types(m, kIntVarchar));
  EntityId b = m.add(EntityKind::Physical, "b");
  EntityId c = m.add(EntityKind::Physical, "c", types(m, kInt));
  EXPECT_TRUE(m.group_schema(m.group_of(x)).empty());
  EXPECT_NE(m.link(x, b, m.stage_id("bind")), LinkOutcome::Refused);  // unknown ~ unknown
  EXPECT_NE(m.link(a, b, m.stage_id("physical")), LinkOutcome::Refused);
  EXPECT_EQ(m.group_schema(m.group_of(x)), kIntVarchar);
  // c's schema conflicts with a's, which b (and x) inherited through the union.
  EXPECT_EQ(m.link(c, x, m.stage_id("exec")), LinkOutcome::Refused);
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
  m.link(ast, log, m.stage_id("bind"));
  m.link(other, other2, m.stage_id("rewrite:push_down_filters"));
  m.link(log, phys, m.stage_id("physical"));
  m.link(phys, ast, m.stage_id("bind"));
  auto history = m.links_of(m.group_of(phys));
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(history[0].stage, "bind");
  EXPECT_EQ(history[1].stage, "physical");
  EXPECT_EQ(history[2].a, phys);
  EXPECT_EQ(m.stages_of(m.group_of(ast)), (std::vector<std::string>{"bind", "physical"}));
  EXPECT_EQ(m.stages_of(m.group_of(other)), (std::vector<std::string>{"rewrite:push_down_filters"}));
  EXPECT_EQ(m.links().size(), 4u);
}

// Numbered labels (what the planning path registers) are the same mapper as text labels: the same text once read.
TEST(PlanMapperTest, NumberedLabelsAreSpelledWhenRead) {
  PlanMapper m;
  EntityId a = m.add(EntityKind::Physical, Label::numbered("HashJoin", 12));
  EntityId b = m.add(EntityKind::Logical, Label::numbered("logical", 7, " (rewritten away)"));
  EntityId c = m.add(EntityKind::Ast, Label::numbered("ast", -1));
  EXPECT_EQ(m.label(a), "HashJoin #12");
  EXPECT_EQ(m.entity(b).label, "logical #7 (rewritten away)");
  EXPECT_EQ(m.label(b), "logical #7 (rewritten away)");
  EXPECT_EQ(m.label(c), "ast #-1");
  EXPECT_EQ(m.kind(a), EntityKind::Physical);
  EXPECT_TRUE(m.schema(a).empty());
  // Text labels, however given; an empty suffix is none; no label is the empty text.
  const std::string owned = "Scan orders";
  EXPECT_EQ(m.label(m.add(EntityKind::Physical, owned)), "Scan orders");
  EXPECT_EQ(m.label(m.add(EntityKind::Physical, std::string_view(owned).substr(5))), "orders");
  EXPECT_EQ(m.label(m.add(EntityKind::Physical, Label::numbered("Filter", 3, ""))), "Filter #3");
  EXPECT_EQ(m.label(m.add(EntityKind::Physical, Label())), "");
  EXPECT_EQ(m.label(m.add(EntityKind::Physical, "")), "");
  EXPECT_TRUE(Label::numbered("x", 1).is_numbered());
  EXPECT_FALSE(Label("x #1").is_numbered());
}

TEST(PlanMapperTest, SignatureBitsAndHexInternAsOneEntity) {
  PlanMapper m;
  const uint64_t hi = 0x0123456789abcdefULL, lo = 0xfedcba9876543210ULL;
  const std::string text = "0123456789abcdeffedcba9876543210";
  EntityId s = m.signature(hi, lo);
  EXPECT_EQ(signature(m, text), s);
  EXPECT_EQ(signature(m, "0123456789ABCDEFFEDCBA9876543210"), s);
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

// Schemas built from type name ids (as the planning path does) behave as the type names they stand for, whatever the
// label of the entity holding them.
TEST(PlanMapperTest, TypedSchemasBehaveLikeTextSchemas) {
  PlanMapper m;
  const PlanMapper::TypeNameId int_t = m.intern_type_name("INT"), varchar_t = m.intern_type_name("VARCHAR");
  EXPECT_EQ(m.intern_type_name("INT"), int_t);
  const std::vector<PlanMapper::TypeRun> iv{{int_t, 1}, {varchar_t, 1}}, vi{{varchar_t, 1}, {int_t, 1}};
  EntityId text = m.add(EntityKind::Logical, "text", types(m, kIntVarchar));
  EntityId typed = m.add(EntityKind::Physical, "typed", m.intern_schema(iv));
  EntityId numbered = m.add(EntityKind::Physical, Label::numbered("Scan", 3), m.intern_schema(iv));
  EntityId swapped = m.add(EntityKind::Physical, Label::numbered("Scan", 4), m.intern_schema(vi));
  EXPECT_EQ(m.schema(typed), kIntVarchar);
  EXPECT_EQ(m.schema(swapped), kVarcharInt);
  EXPECT_NE(m.link(text, typed, m.stage_id("physical")), LinkOutcome::Refused);
  EXPECT_NE(m.link(numbered, typed, m.stage_id("physical")), LinkOutcome::Refused);
  EXPECT_EQ(m.link(swapped, text, m.stage_id("physical")), LinkOutcome::Refused);
  ASSERT_EQ(m.refused_links().size(), 1u);
  const RefusedLink r = m.refused_links().back();
  EXPECT_NE(r.reason.find("(VARCHAR, INT)"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("Scan #4"), std::string::npos) << r.reason;
  EXPECT_THROW(m.intern_schema(std::vector<PlanMapper::TypeRun>{{99, 1}}), std::out_of_range);
}

// Labels are built when first read: reading more of them must not move the text of one already read
// (a refusal reason formats two labels in one call).
TEST(PlanMapperTest, LabelReferencesStayValidAsMoreLabelsAreBuilt) {
  PlanMapper m;
  EntityId first = m.add(EntityKind::Logical, Label::numbered("Join", 1));
  const std::string& label = m.label(first);
  for (int i = 0; i < 1000; ++i) m.label(m.add(EntityKind::Physical, Label::numbered("Scan", i)));
  EXPECT_EQ(label, "Join #1");
  EXPECT_EQ(m.label(m.add(EntityKind::Ast, "explicit")), "explicit");
  EXPECT_EQ(label, "Join #1");
}

// link() returns what it did; a refusal is recorded too (and thrown when strict).
TEST(PlanMapperTest, LinkReturnsItsOutcomeAndRecordsRefusals) {
  PlanMapper m;
  const PlanMapper::StageId stage = m.stage_id("physical");
  EntityId a = m.add(EntityKind::Logical, "a", types(m, kIntVarchar));
  EntityId b = m.add(EntityKind::Physical, "b", types(m, kIntVarchar));
  EntityId c = m.add(EntityKind::Physical, "c", types(m, kVarcharInt));
  EXPECT_EQ(m.link(a, b, stage), LinkOutcome::Merged);
  EXPECT_EQ(m.link(b, a, stage), LinkOutcome::AlreadyGrouped);
  EXPECT_EQ(m.link(a, c, stage), LinkOutcome::Refused);
  ASSERT_EQ(m.refused_links().size(), 1u);
  EXPECT_EQ(m.refused_links()[0].stage, "physical");
  EXPECT_FALSE(m.same_group(a, c));
  EXPECT_EQ(m.link_count(), 2u);
  m.set_strict(true);
  EXPECT_THROW(m.link(c, b, stage), MapperConflict);
  EXPECT_EQ(m.refused_links().size(), 2u);
}

// clear() keeps a small dictionary of type names and schemas, ids and all (dictionary() unchanged), and drops a large
// one (a new dictionary()); a moved-from mapper has a new, empty dictionary. Every mapper's dictionary() differs.
TEST(PlanMapperTest, ClearKeepsASmallDictionaryAndSaysWhenItDropsOne) {
  PlanMapper m;
  const PlanMapper::TypeNameId date = m.intern_type_name("DATE"), bigint = m.intern_type_name("BIGINT");
  const PlanMapper::TypeRun runs[] = {{bigint, 2}, {date, 1}};
  const PlanMapper::SchemaId schema = m.intern_schema(runs);
  const uint64_t before = m.dictionary();
  m.add(EntityKind::Logical, "a", types(m, {"BIGINT"}));
  m.clear();
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.dictionary(), before);
  EXPECT_EQ(m.intern_type_name("BIGINT"), bigint);
  EXPECT_EQ(m.intern_schema(runs), schema);
  const EntityId e = m.add(EntityKind::Physical, Label::numbered("Scan", 1), schema);
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

// Linking entities to their signatures (as map_query does: signature() then link(), link by link) makes the groups,
// refusals, schemas and labels of a brute-force reference: random entities of three schemas (or none), some grouped
// beforehand, linked to keys drawn from a small pool so that most keys repeat and some repeat across schemas
// (refused).
TEST(PlanMapperTest, SignatureLinksMatchAReferencePartition) {
  std::mt19937_64 rng(7);
  size_t refusals = 0;
  for (int round = 0; round < 20; ++round) {
    PlanMapper m;
    const PlanMapper::StageId signature_stage = m.stage_id("signature"), physical = m.stage_id("physical");
    const std::vector<std::string>* schemas[] = {&kIntVarchar, &kInt, &kVarcharInt, nullptr};
    // The reference: a naive partition (group = smallest member, relabelled on union) and each group's schema.
    std::vector<EntityId> group;
    std::vector<const std::vector<std::string>*> group_schema;  // by group; nullptr = unknown
    auto ref_link = [&](EntityId a, EntityId b) {
      const EntityId ga = group[a], gb = group[b];
      if (ga == gb) return true;
      if (group_schema[ga] && group_schema[gb] && *group_schema[ga] != *group_schema[gb]) return false;
      const EntityId into = std::min(ga, gb), from = std::max(ga, gb);
      for (EntityId& g : group)
        if (g == from) g = into;
      if (!group_schema[into]) group_schema[into] = group_schema[from];
      return true;
    };
    const int n = 40 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      const auto* schema = schemas[rng() % 4];
      m.add(EntityKind::Physical, "op" + std::to_string(i), schema ? types(m, *schema) : PlanMapper::kUnknownSchema);
      group.push_back(static_cast<EntityId>(i));
      group_schema.push_back(schema);
    }
    for (int i = 0; i < n / 4; ++i) {  // earlier stages' links
      const auto a = static_cast<EntityId>(rng() % n), b = static_cast<EntityId>(rng() % n);
      EXPECT_EQ(m.link(a, b, physical) != LinkOutcome::Refused, ref_link(a, b));
    }
    std::vector<std::pair<uint64_t, std::string>> first_label;  // by key, in order of first use
    for (int i = 0; i < 2 * n; ++i) {
      const uint64_t key = rng() % 12;
      const auto entity = static_cast<EntityId>(rng() % n);
      const char* prefix = i % 3 ? "sig " : "join-set ";
      const EntityId sig = m.signature(key * 0x9E3779B97F4A7C15ULL, key, prefix);
      auto known = std::find_if(first_label.begin(), first_label.end(), [&](const auto& f) { return f.first == key; });
      if (known == first_label.end()) {  // a new key: a new Signature entity, the next id
        EXPECT_EQ(sig, group.size());
        group.push_back(sig);
        group_schema.push_back(nullptr);
        first_label.emplace_back(key, prefix);
      } else {
        EXPECT_EQ(sig, n + static_cast<EntityId>(known - first_label.begin()));
      }
      const bool accepted = ref_link(entity, sig);
      EXPECT_EQ(m.link(entity, sig, signature_stage) != LinkOutcome::Refused, accepted);
      refusals += !accepted;
    }
    ASSERT_EQ(m.size(), group.size());
    EXPECT_EQ(canonical_partition(m), group);
    for (EntityId id = 0; id < m.size(); ++id) {
      const std::vector<std::string> none;
      EXPECT_EQ(m.group_schema(m.group_of(id)), group_schema[group[id]] ? *group_schema[group[id]] : none) << id;
    }
    for (size_t k = 0; k < first_label.size(); ++k) {
      const uint64_t key = first_label[k].first;
      const EntityId sig = n + static_cast<EntityId>(k);
      EXPECT_EQ(m.label(sig), first_label[k].second + std::string(m.entity(sig).signature_key));
      EXPECT_EQ(m.find_signature(m.entity(sig).signature_key), sig);
      EXPECT_EQ(m.signature(key * 0x9E3779B97F4A7C15ULL, key), sig);
    }
  }
  EXPECT_GT(refusals, 0u);  // the comparison covers refusals too
  // Strict mode: a refused signature link throws; linking an entity to its own group's signature does not.
  PlanMapper strict;
  strict.set_strict(true);
  const PlanMapper::StageId stage = strict.stage_id("signature");
  EntityId a = strict.add(EntityKind::Physical, "a", types(strict, kInt));
  EntityId b = strict.add(EntityKind::Physical, "b", types(strict, kIntVarchar));
  EXPECT_EQ(strict.link(a, strict.signature(1, 2), stage), LinkOutcome::Merged);
  EXPECT_THROW(strict.link(b, strict.signature(1, 2), stage), MapperConflict);
  EXPECT_EQ(strict.refused_links().size(), 1u);
  const size_t links = strict.link_count();
  EXPECT_EQ(strict.link(a, strict.signature(1, 2), stage), LinkOutcome::AlreadyGrouped);
  EXPECT_EQ(strict.link_count(), links + 1);
  EXPECT_THROW(strict.link(42, strict.signature(3, 4), stage), std::out_of_range);
  EXPECT_THROW(strict.link(a, strict.signature(3, 4), PlanMapper::StageId{9}), std::out_of_range);
}

// clear() leaves a mapper that behaves as a new one.
TEST(PlanMapperTest, ClearedMapperIsANewMapper) {
  auto fill = [](PlanMapper& m) {
    EntityId a = m.add(EntityKind::Logical, "a", types(m, kIntVarchar));
    EntityId b = m.add(EntityKind::Physical, "b", types(m, kVarcharInt));
    EntityId s = m.signature(1, 2), t = m.add(EntityKind::Logical, Label::numbered("Join", 3, " (x)"));
    m.link(a, s, m.stage_id("signature"));
    m.link(t, s, m.stage_id("signature"));
    m.link(a, b, m.stage_id("physical"));  // refused: the schemas differ
    m.attach_stats(a, {7, true, "observed"});
    m.label(t);
    m.group_of(a);
  };
  PlanMapper fresh, reused;
  fill(fresh);
  reused.set_strict(true);
  EntityId x = reused.add(EntityKind::Ast, "x", types(reused, {"DATE", "DATE", "BIGINT"}));
  reused.link(x, reused.signature(1, 2), reused.stage_id("bind"));
  for (int i = 0; i < 100; ++i) reused.signature(static_cast<uint64_t>(i) * 7919, 5);
  reused.clear();
  EXPECT_FALSE(reused.strict());
  EXPECT_EQ(reused.size(), 0u);
  fill(reused);
  EXPECT_EQ(to_json(reused).dump(), to_json(fresh).dump());
  EXPECT_EQ(reused.refused_links().size(), 1u);
}

// Schemas are interned: equal type lists are one schema, whichever entity registered them.
TEST(PlanMapperTest, EqualSchemasAreOneInternedSchema) {
  PlanMapper m;
  const PlanMapper::TypeNameId i = m.intern_type_name("INT"), v = m.intern_type_name("VARCHAR");
  using Run = PlanMapper::TypeRun;
  const std::vector<Run> iv{{i, 1}, {v, 1}}, vi{{v, 1}, {i, 1}};
  EXPECT_EQ(m.intern_schema(iv), m.intern_schema(iv));
  EXPECT_FALSE(m.intern_schema(iv) == m.intern_schema(vi));
  EXPECT_EQ(m.intern_schema({}), PlanMapper::kUnknownSchema);
  // Enough distinct schemas to grow the intern table several times; each still finds itself.
  std::vector<PlanMapper::SchemaId> ids;
  for (size_t n = 1; n <= 200; ++n) ids.push_back(m.intern_schema(std::vector<Run>(n, Run{i, 1})));
  for (size_t n = 1; n <= 200; ++n) EXPECT_EQ(m.intern_schema(std::vector<Run>(n, Run{i, 1})), ids[n - 1]);
  EntityId a = m.add(EntityKind::Logical, Label::numbered("A", 1), m.intern_schema(iv));
  EntityId b = m.add(EntityKind::Physical, "b", types(m, {"INT", "VARCHAR"}));
  EntityId c = m.add(EntityKind::Physical, "c", m.intern_schema(vi));
  EXPECT_NE(m.link(a, b, m.stage_id("physical")), LinkOutcome::Refused);
  EXPECT_EQ(m.link(a, c, m.stage_id("physical")), LinkOutcome::Refused);
  EXPECT_THROW(m.add(EntityKind::Logical, "bad", PlanMapper::SchemaId{9999}), std::out_of_range);
  EXPECT_THROW(m.add(EntityKind::Logical, Label::numbered("bad", 1), PlanMapper::SchemaId{9999}), std::out_of_range);
  EXPECT_THROW(m.add(EntityKind::Logical, Label::numbered("bad", 1, " (x)"), PlanMapper::SchemaId{9999}),
               std::out_of_range);
}

// A schema given as runs of one type is the schema of the list they spell out, however the runs are cut.
TEST(PlanMapperTest, SchemaRunsAreTheListTheySpell) {
  PlanMapper m;
  const PlanMapper::TypeNameId i = m.intern_type_name("INT"), v = m.intern_type_name("VARCHAR");
  using Run = PlanMapper::TypeRun;
  const PlanMapper::SchemaId iiv = m.intern_schema(std::vector<Run>{{i, 1}, {i, 1}, {v, 1}});
  EXPECT_EQ(m.intern_schema(std::vector<Run>{{i, 2}, {v, 1}}), iiv);
  EXPECT_EQ(m.intern_schema(std::vector<Run>{{i, 1}, {i, 1}, {v, 0}, {v, 1}}), iiv);  // cut and padded
  EXPECT_FALSE(m.intern_schema(std::vector<Run>{{i, 1}, {v, 1}, {i, 1}}) == iiv);    // order counts
  EXPECT_FALSE(m.intern_schema(std::vector<Run>{{i, 3}, {v, 1}}) == iiv);            // so do counts
  EXPECT_EQ(m.intern_schema(std::vector<Run>{{i, 0}}), PlanMapper::kUnknownSchema);
  EXPECT_THROW(m.intern_schema(std::vector<Run>{{7, 1}}), std::out_of_range);
  // The text of a schema made from runs lists every column.
  EntityId e = m.add(EntityKind::Logical, "e", m.intern_schema(std::vector<Run>{{v, 1}, {i, 3}}));
  EXPECT_EQ(m.schema(e), (std::vector<std::string>{"VARCHAR", "INT", "INT", "INT"}));
}

TEST(PlanMapperTest, StageIdsRecordTheirStage) {
  PlanMapper m;
  EntityId a = m.add(EntityKind::Ast, "a"), b = m.add(EntityKind::Logical, "b"), c = m.add(EntityKind::Physical, "c");
  const PlanMapper::StageId bind = m.stage_id("bind");
  EXPECT_EQ(m.stage_id("bind"), bind);
  EXPECT_NE(m.link(a, b, bind), LinkOutcome::Refused);
  EXPECT_NE(m.link(b, c, m.stage_id("physical")), LinkOutcome::Refused);
  EXPECT_NE(m.link(c, a, m.stage_id("bind")), LinkOutcome::Refused);
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
