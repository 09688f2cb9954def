#include "mapper/mapper_export.hpp"

#include "tests/unit/mapper/schema_builder.hpp"

#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

namespace hindsight::mapper {
namespace {

std::set<std::string> keys(const nlohmann::json& object) {
  std::set<std::string> out;
  for (auto it = object.begin(); it != object.end(); ++it) out.insert(it.key());
  return out;
}

// Entities 0..6: a bound/planned/executed join, a signature shared by two CTE bodies, a refused link, a singleton.
PlanMapper sample() {
  PlanMapper m;
  EntityId ast = m.add(EntityKind::Ast, "SELECT ... JOIN");
  EntityId join = m.add(EntityKind::Logical, "Join inner [o_custkey = c_custkey]", types(m, {"INT", "VARCHAR"}));
  EntityId hash = m.add(EntityKind::Physical, "HashJoin #12 [orders⋈customer] \"q\" back\\slash");
  EntityId cte1 = m.add(EntityKind::Logical, "cte a", types(m, {"INT"}));
  EntityId cte2 = m.add(EntityKind::Logical, "cte b", types(m, {"INT"}));
  m.add(EntityKind::Exec, "lonely");
  m.link(ast, join, m.stage_id("bind"));
  m.link(join, hash, m.stage_id("physical"));
  m.link(cte1, m.signature(0x1111111111111111ULL, 0x1111111111111111ULL), m.stage_id("signature"));
  m.link(cte2, m.signature(0x1111111111111111ULL, 0x1111111111111111ULL), m.stage_id("signature"));
  m.link(cte1, join, m.stage_id("rewrite:bad"));  // refused: (INT) vs (INT, VARCHAR)
  m.attach_stats(hash, {10, true, "attempt 1"});
  return m;
}

TEST(MapperExportTest, JsonMatchesTheGroupsContract) {
  PlanMapper m = sample();
  nlohmann::json j = to_json(m);
  EXPECT_EQ(keys(j), (std::set<std::string>{"groups", "refused_links"}));
  ASSERT_TRUE(j["groups"].is_array());
  ASSERT_EQ(j["groups"].size(), m.group_count());
  size_t members_seen = 0;
  for (const auto& g : j["groups"]) {
    ASSERT_TRUE(g.is_object());
    std::set<std::string> k = keys(g);
    EXPECT_TRUE(k.count("id") && k.count("members"));
    for (const auto& extra : k) {
      EXPECT_TRUE(std::set<std::string>({"id", "members", "stages", "schema", "stats"}).count(extra)) << extra;
    }
    EXPECT_TRUE(g["id"].is_number_integer());
    ASSERT_TRUE(g["members"].is_array());
    EXPECT_FALSE(g["members"].empty());
    for (const auto& member : g["members"]) {
      EXPECT_EQ(keys(member), (std::set<std::string>{"kind", "id", "label"}));
      EXPECT_TRUE(member["kind"].is_string());
      EXPECT_TRUE(entity_kind_from_string(member["kind"].get<std::string>()).has_value());
      EXPECT_TRUE(member["id"].is_number_integer());
      EXPECT_TRUE(member["label"].is_string());
      EXPECT_EQ(g["id"].get<GroupId>(), m.group_of(member["id"].get<EntityId>()));
      ++members_seen;
    }
  }
  EXPECT_EQ(members_seen, m.size());
  ASSERT_TRUE(j["refused_links"].is_array());
  ASSERT_EQ(j["refused_links"].size(), 1u);
  const auto& r = j["refused_links"][0];
  EXPECT_EQ(keys(r), (std::set<std::string>{"a", "b", "stage", "reason"}));
  EXPECT_EQ(r["a"], 3);
  EXPECT_EQ(r["b"], 1);
  EXPECT_EQ(r["stage"], "rewrite:bad");
  EXPECT_TRUE(r["reason"].is_string());

  const auto& join_group = j["groups"][0];
  EXPECT_EQ(join_group["id"], 0);
  EXPECT_EQ(join_group["members"][0], (nlohmann::json{{"kind", "ast"}, {"id", 0}, {"label", "SELECT ... JOIN"}}));
  EXPECT_EQ(join_group["stages"], (nlohmann::json{"bind", "physical", "stats"}));
  EXPECT_EQ(join_group["stats"]["rows"], 10);
  EXPECT_NO_THROW(j.dump());

  nlohmann::json multi = to_json(m, true);
  EXPECT_EQ(multi["groups"].size(), m.multi_member_groups().size());
  EXPECT_EQ(multi["groups"].size(), 2u);
}

// Minimal DOT well-formedness check: braces balance outside quoted strings and every string is closed.
bool balanced_dot(const std::string& dot) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < dot.size(); ++i) {
    char c = dot[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (--depth < 0) return false;
    }
  }
  return depth == 0 && !in_string;
}

TEST(MapperExportTest, DotIsAGraphWithNodesClustersAndRefusedEdges) {
  PlanMapper m = sample();
  std::string dot = to_dot(m);
  EXPECT_TRUE(balanced_dot(dot)) << dot;
  EXPECT_EQ(dot.rfind("digraph", 0), 0u) << dot;

  std::set<std::string> nodes;
  size_t node_lines = 0, clusters = 0, edges = 0, refused = 0;
  std::istringstream in(dot);
  std::string line;
  const std::regex node_re(R"(^(\d+)\[.*\];$)");
  const std::regex edge_re(R"(^(\d+) -> (\d+)(\[.*\])?;$)");
  std::smatch match;
  while (std::getline(in, line)) {
    if (std::regex_match(line, match, node_re)) {
      nodes.insert(match[1]);
      ++node_lines;
    } else if (std::regex_match(line, match, edge_re)) {
      ++edges;
      if (line.find("style=dashed") != std::string::npos && line.find("color=red") != std::string::npos) ++refused;
    } else if (line.rfind("subgraph cluster_", 0) == 0) {
      ++clusters;
    }
  }
  EXPECT_EQ(node_lines, m.size());
  EXPECT_EQ(nodes.size(), m.size());
  EXPECT_EQ(clusters, m.multi_member_groups().size());
  EXPECT_EQ(edges, m.link_count() + m.refused_links().size());
  EXPECT_EQ(refused, 1u);
  EXPECT_NE(dot.find("label=physical"), std::string::npos);
}

TEST(MapperExportTest, TextListsGroupsMembersAndRefusals) {
  PlanMapper m = sample();
  std::string text = to_text(m);
  EXPECT_NE(text.find("group 0 (4 members; stages: bind, physical, stats)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  logical    #1    Join inner [o_custkey = c_custkey]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("group 2 (1 member; stages: none)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("refused links (1)\n  #3 -- #1  [rewrite:bad]  schema mismatch"), std::string::npos) << text;
  std::string multi = to_text(m, true);
  EXPECT_EQ(multi.find("lonely"), std::string::npos);
  EXPECT_NE(multi.find("group 1 (3 members; stages: signature)"), std::string::npos) << multi;
}

}  // namespace
}  // namespace hindsight::mapper
