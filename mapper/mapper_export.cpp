#include "mapper/mapper_export.hpp"

#include <map>
#include <sstream>

// g++ 12 -O2 reports a false -Wmaybe-uninitialized inside Boost's adjacency_list edge iterator (a boost::optional).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/graph/subgraph.hpp>
#pragma GCC diagnostic pop
#include <fmt/format.h>

namespace hindsight::mapper {

namespace {

using Attributes = std::map<std::string, std::string>;

// Boost's write_graphviz for a boost::subgraph emits every child subgraph as `subgraph <graph_name> { ... }` and
// writes node, edge and graph attributes from these attribute properties, so the whole DOT text, clusters included,
// comes from Boost: each multi-member group is a child subgraph named cluster_<id>.
using DotGraph = boost::subgraph<boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::property<boost::vertex_attribute_t, Attributes>,
    boost::property<boost::edge_index_t, int, boost::property<boost::edge_attribute_t, Attributes>>,
    boost::property<boost::graph_name_t, std::string,
                    boost::property<boost::graph_graph_attribute_t, Attributes,
                                    boost::property<boost::graph_vertex_attribute_t, Attributes,
                                                    boost::property<boost::graph_edge_attribute_t, Attributes>>>>>>;

std::string_view kind_colour(EntityKind kind) {
  switch (kind) {
    case EntityKind::Ast: return "#fde2a7";
    case EntityKind::Logical: return "#b9d7f7";
    case EntityKind::Physical: return "#bfe8c0";
    case EntityKind::Exec: return "#f6c1c1";
    case EntityKind::Signature: return "#e0e0e0";
    case EntityKind::Stats: return "#e3d3f5";
  }
  return "white";
}

// escape_dot_string only escapes '"'; backslashes and newlines are made safe here first.
std::string dot_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c != '\r') {
      out += c;
    }
  }
  return out;
}

std::string member_line(const PlanMapper& mapper, EntityId id) {
  return fmt::format("  {:<9}  #{:<4} {}\n", to_string(mapper.kind(id)), id, mapper.label(id));
}

}  // namespace

nlohmann::json to_json(const PlanMapper& mapper, bool only_multi_member_groups) {
  nlohmann::json groups = nlohmann::json::array();
  for (GroupId g : only_multi_member_groups ? mapper.multi_member_groups() : mapper.groups()) {
    nlohmann::json members = nlohmann::json::array();
    for (EntityId id : mapper.members(g)) {
      members.push_back({{"kind", std::string(to_string(mapper.kind(id)))}, {"id", id}, {"label", mapper.label(id)}});
    }
    nlohmann::json stats = nullptr;
    if (auto record = mapper.group_stats(g)) {
      stats = {{"rows", record->rows}, {"complete", record->complete}, {"source", record->source}};
    }
    groups.push_back({{"id", g},
                      {"members", std::move(members)},
                      {"stages", mapper.stages_of(g)},
                      {"schema", mapper.group_schema(g)},
                      {"stats", std::move(stats)}});
  }
  nlohmann::json refused = nlohmann::json::array();
  for (const RefusedLink& r : mapper.refused_links()) {
    refused.push_back({{"a", r.a}, {"b", r.b}, {"stage", r.stage}, {"reason", r.reason}});
  }
  return {{"groups", std::move(groups)}, {"refused_links", std::move(refused)}};
}

std::string to_dot(const PlanMapper& mapper) {
  DotGraph root(mapper.size());
  boost::get_property(root, boost::graph_name) = "hindsight_groups";
  boost::get_property(root, boost::graph_graph_attribute)["rankdir"] = "LR";
  boost::get_property(root, boost::graph_vertex_attribute)["shape"] = "box";
  boost::get_property(root, boost::graph_vertex_attribute)["style"] = "filled";
  boost::get_property(root, boost::graph_vertex_attribute)["fontsize"] = "10";
  boost::get_property(root, boost::graph_edge_attribute)["fontsize"] = "9";

  for (EntityId id = 0; id < mapper.size(); ++id) {
    Attributes& node = boost::get(boost::vertex_attribute, root)[id];
    node["label"] = dot_safe(fmt::format("{} #{}\n{}", to_string(mapper.kind(id)), id, mapper.label(id)));
    node["fillcolor"] = std::string(kind_colour(mapper.kind(id)));
  }

  // One child subgraph per multi-member group; accepted links are added to their group's subgraph so they print
  // inside the cluster (both ends of an accepted link are always in the same group).
  std::vector<DotGraph*> cluster_of_group(mapper.group_count(), nullptr);
  for (GroupId g : mapper.multi_member_groups()) {
    DotGraph& cluster = root.create_subgraph();
    cluster_of_group[g] = &cluster;
    boost::get_property(cluster, boost::graph_name) = fmt::format("cluster_{}", g);
    auto stages = mapper.stages_of(g);
    boost::get_property(cluster, boost::graph_graph_attribute)["label"] =
        dot_safe(fmt::format("group {} ({})", g, fmt::join(stages, ", ")));
    boost::get_property(cluster, boost::graph_graph_attribute)["style"] = "rounded";
    for (EntityId id : mapper.members(g)) boost::add_vertex(id, cluster);
  }
  for (const Link& l : mapper.links()) {
    DotGraph* cluster = cluster_of_group[mapper.group_of(l.a)];
    auto [edge, added] =
        cluster ? boost::add_edge(cluster->global_to_local(l.a), cluster->global_to_local(l.b), *cluster)
                : boost::add_edge(l.a, l.b, root);  // a self-link of a singleton
    boost::get(boost::edge_attribute, cluster ? *cluster : root)[edge]["label"] = dot_safe(l.stage);
  }
  for (const RefusedLink& r : mapper.refused_links()) {
    auto [edge, added] = boost::add_edge(r.a, r.b, root);
    Attributes& attrs = boost::get(boost::edge_attribute, root)[edge];
    attrs["label"] = dot_safe("refused: " + r.stage);
    attrs["style"] = "dashed";
    attrs["color"] = "red";
    attrs["fontcolor"] = "red";
    attrs["tooltip"] = dot_safe(r.reason);
  }

  std::ostringstream out;
  boost::write_graphviz(out, root);
  return out.str();
}

std::string to_text(const PlanMapper& mapper, bool only_multi_member_groups) {
  std::string text;
  for (GroupId g : only_multi_member_groups ? mapper.multi_member_groups() : mapper.groups()) {
    const auto& members = mapper.members(g);
    auto stages = mapper.stages_of(g);
    text += fmt::format("group {} ({} member{}; stages: {})\n", g, members.size(), members.size() == 1 ? "" : "s",
                        stages.empty() ? std::string("none") : fmt::format("{}", fmt::join(stages, ", ")));
    for (EntityId id : members) text += member_line(mapper, id);
  }
  const auto& refused = mapper.refused_links();
  text += fmt::format("refused links ({})\n", refused.size());
  for (const RefusedLink& r : refused) {
    text += fmt::format("  #{} -- #{}  [{}]  {}\n", r.a, r.b, r.stage, r.reason);
  }
  return text;
}

}  // namespace hindsight::mapper
