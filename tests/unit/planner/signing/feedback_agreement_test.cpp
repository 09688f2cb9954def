// The signatures the cardinality model looks observations up by while compiling (before and after join ordering)
// are the signatures the final plan's nodes get from compile_query's signer: what is recorded under a node's
// signatures after a run is found again when the same computation is planned. And the join-set signature the join
// enumerator asks for a set of relations is the join-set signature of the final plan's join over that set.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "planner/logical/plan_utils.hpp"
#include "planner/signing/plan_signer.hpp"
#include "stats_store/stats_source.hpp"
#include "tests/unit/planner/sql/tpch_queries.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using Kind = stats::StatsSource::KeyKind;

/// Answers nothing, remembers every key it was asked for. StatsSource::lookup asks Exact, then JoinSet, then
/// Template; the join enumerator asks JoinSet alone: a JoinSet key right after an Exact one is a node look-up.
class RecordingSource final : public stats::StatsSource {
 public:
  std::optional<stats::ObservedRows> find(Kind kind, const sig::Signature& key) const override {
    if (kind == Kind::JoinSet && last_ != Kind::Exact)
      enumerated.insert(key);
    else
      looked_up.insert({kind, key});
    last_ = kind;
    return std::nullopt;
  }
  mutable std::set<std::pair<Kind, sig::Signature>> looked_up;  // by estimate_node
  mutable std::set<sig::Signature> enumerated;                  // by observed_join_rows (join_set_of)

 private:
  mutable Kind last_ = Kind::Template;
};

std::unique_ptr<CompiledQuery> compile_with(const std::string& sql, const Settings& settings,
                                            const stats::StatsSource& source) {
  auto stmts = sql::parse_sql(sql);
  // Not owned: the caller keeps the source alive.
  StatsProvider provider = [&source](const std::vector<stats::TableVersion>&) {
    return std::shared_ptr<const stats::StatsSource>(std::shared_ptr<const stats::StatsSource>{}, &source);
  };
  return compile_query(testing::tpch_db(), *stmts.at(0)->as<sql::SelectStatement>().query, sql, settings,
                       /*sign_plans=*/true, provider);
}

bool inner_join(const LogicalOperator& op) {
  return op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Inner;
}

/// Nodes with a join set: inner joins and the semi, anti, null-aware anti and LEFT joins reading their left side.
bool set_node(const LogicalOperator& op) { return inner_join(op) || is_member_join(op); }

/// `read_above` plus the columns the conditions of join `op` read.
std::set<ColumnId> with_conditions(const LogicalOperator& op, std::set<ColumnId> read_above) {
  add_condition_columns(op, read_above);
  return read_above;
}

/// The relations of the region (inner joins and members) under `op`, and its inner joins. A LEFT join whose
/// null-producing side a condition above it reads is one relation (is_region_member_join).
void region_size(const LogicalOperator& op, const std::set<ColumnId>& above, size_t& relations, size_t& inner) {
  if (inner_join(op)) {
    ++inner;
    region_size(*op.children[0], with_conditions(op, above), relations, inner);
    region_size(*op.children[1], with_conditions(op, above), relations, inner);
  } else if (is_region_member_join(op, above)) {
    ++relations;
    region_size(*op.children[0], with_conditions(op, above), relations, inner);
  } else {
    ++relations;
  }
}

size_t leaf_count(const LogicalOperator& op) {
  size_t relations = 0, inner = 0;
  region_size(op, {}, relations, inner);
  return inner == 0 ? 0 : relations;
}

struct Counts {
  size_t nodes = 0, joins = 0, priced = 0;
};

/// Checks every logical node of the final plans of `sql`; returns how many it checked.
Counts check(const std::string& sql, const Settings& settings, const std::string& name) {
  RecordingSource source;
  auto cq = compile_with(sql, settings, source);
  const bool enumerated = settings.optimizer != "foundation";
  Counts n;
  // The enumerator orders regions (inner joins and the semi joins among them) of three or more relations with an
  // inner join (and prices every set it builds); smaller ones keep their order unpriced. `tree`: the relation
  // count of the region op belongs to (0: none). A semi join's right input starts a region of its own.
  // `above`: the columns the conditions of the region's joins above `op` read. A LEFT join kept whole (one that a
  // condition above reads) starts a region of its own.
  std::function<void(const LogicalOperator&, size_t, std::set<ColumnId>)> walk = [&](const LogicalOperator& op,
                                                                                     size_t tree,
                                                                                     std::set<ColumnId> above) {
    if (!set_node(op)) {
      tree = 0;
      above.clear();
    } else if (tree == 0 || !(inner_join(op) || is_region_member_join(op, above))) {
      above.clear();
      tree = leaf_count(op);
    }
    const NodeSignatures& s = cq->signer->sign(op);
    ++n.nodes;
    EXPECT_TRUE(source.looked_up.count({Kind::Exact, s.exact}))
        << name << ": " << logical_kind_name(op.kind) << " #" << op.id;
    EXPECT_TRUE(source.looked_up.count({Kind::Template, s.templ}))
        << name << ": " << logical_kind_name(op.kind) << " #" << op.id;
    EXPECT_EQ(s.join_set.has_value(), set_node(op)) << name << ": " << logical_kind_name(op.kind) << " #" << op.id;
    if (s.join_set) {
      ++n.joins;
      EXPECT_TRUE(source.looked_up.count({Kind::JoinSet, *s.join_set})) << name << ": join #" << op.id;
      if (enumerated && tree >= 3) {
        ++n.priced;
        EXPECT_TRUE(source.enumerated.count(*s.join_set)) << name << ": join #" << op.id << " not priced";
      }
    }
    if (is_member_join(op)) {
      walk(*op.children[0], tree, with_conditions(op, above));
      walk(*op.children[1], 0, {});
      return;
    }
    for (auto& c : op.children) walk(*c, tree, set_node(op) ? with_conditions(op, above) : std::set<ColumnId>{});
  };
  for (auto& c : cq->ctes) walk(*c.logical, 0, {});
  walk(*cq->logical, 0, {});
  return n;
}

const std::vector<std::string>& held_out() {
  static const std::vector<std::string> q = {
      "SELECT n_name, count(*) FROM nation, region, supplier WHERE r_regionkey = n_regionkey AND s_nationkey = "
      "n_nationkey AND r_name <> 'ASIA' GROUP BY n_name",
      "SELECT count(*) FROM lineitem, supplier, orders, customer, nation WHERE s_nationkey = n_nationkey AND l_suppkey "
      "= "
      "s_suppkey AND c_custkey = o_custkey AND o_orderkey = l_orderkey AND c_nationkey = n_nationkey AND l_quantity > "
      "45",
      "SELECT c_name FROM customer LEFT JOIN orders ON c_custkey = o_custkey AND o_totalprice > 1000 WHERE o_orderkey "
      "IS "
      "NULL ORDER BY c_name LIMIT 5",
      "SELECT x, count(*) FROM (SELECT n_regionkey AS x FROM nation, region WHERE n_regionkey = r_regionkey UNION ALL "
      "SELECT s_nationkey FROM supplier) u GROUP BY x",
      "WITH t AS (SELECT o_custkey k, sum(o_totalprice) p FROM orders GROUP BY o_custkey) SELECT count(*) FROM t a, t "
      "b, "
      "customer WHERE a.k = b.k AND c_custkey = a.k AND a.p > b.p - 100",
      // A LEFT join the enumerator moves among the inner joins of its preserved side (a LEFT member).
      "SELECT n_name, count(l_orderkey) FROM orders LEFT JOIN lineitem ON l_orderkey = o_orderkey AND l_quantity > 45 "
      "JOIN customer ON c_custkey = o_custkey JOIN nation ON n_nationkey = c_nationkey GROUP BY n_name",
      // A LEFT join whose null-producing side an inner join's condition reads: kept whole, one relation.
      "SELECT count(*) FROM customer LEFT JOIN supplier ON s_suppkey = c_custkey JOIN nation ON n_nationkey = "
      "coalesce(s_nationkey, c_nationkey) JOIN region ON r_regionkey = n_regionkey JOIN orders ON o_custkey = c_custkey",
      // LEFT of LEFT: the second ON reads the first one's null-producing side.
      "SELECT count(*) FROM customer JOIN orders ON o_custkey = c_custkey LEFT JOIN supplier ON s_suppkey = c_custkey "
      "LEFT JOIN nation ON n_nationkey = s_nationkey JOIN region ON r_regionkey = c_nationkey",
  };
  return q;
}

TEST(FeedbackAgreementTest, ModelLooksUpTheSignaturesOfTheFinalPlanForEveryTpchAndHeldOutQuery) {
  std::vector<std::pair<std::string, std::string>> queries;
  int number = 0;
  for (const std::string& sql : sql::testing::tpch_queries()) queries.emplace_back("Q" + std::to_string(++number), sql);
  number = 0;
  for (const std::string& sql : held_out()) queries.emplace_back("held-out " + std::to_string(++number), sql);
  Settings foundation;
  foundation.optimizer = "foundation";
  Settings materialized;
  materialized.cte_materialization = "always";
  Counts total;
  for (auto& [name, sql] : queries) {
    for (const Settings& s : {Settings{}, foundation, materialized}) {
      const Counts n = check(sql, s, name + " (" + s.optimizer + ", " + s.cte_materialization + ")");
      EXPECT_GT(n.nodes, 2u) << name;
      total.nodes += n.nodes;
      total.joins += n.joins;
      total.priced += n.priced;
    }
  }
  EXPECT_GT(total.joins, 100u);
  EXPECT_GT(total.priced, 50u);
}

// The enumerator's join_set_of and the final tree's join nodes agree for every sub-tree, not only the ones a
// cost-based run happened to build: every inner join of a tree planned in written order, asked by its leaves and
// the conditions applied inside it (and the semi joins inside it, as members).
TEST(FeedbackAgreementTest, JoinSetOfEqualsTheJoinSetOfEverySubTree) {
  Settings foundation;
  foundation.optimizer = "foundation";
  size_t checked = 0, checked_members = 0;
  for (const std::string& sql : sql::testing::tpch_queries()) {
    auto cq = testing::compile(sql, foundation);
    PlanSigner fresh(cq->ctx);
    for (size_t i = 0; i < cq->ctes.size(); ++i) fresh.set_cte(static_cast<int>(i), *cq->ctes[i].logical);
    std::vector<PlanSigner::SemiMemberRef> members;
    std::function<void(const LogicalOperator&, std::vector<const LogicalOperator*>&, std::vector<const Expr*>&)>
        collect = [&](const LogicalOperator& op, std::vector<const LogicalOperator*>& leaves,
                      std::vector<const Expr*>& conds) {
          if (is_member_join(op)) {
            const auto& j = op.as<LogicalJoin>();
            members.push_back({j.type, &j.conditions, op.children[1].get()});
            collect(*op.children[0], leaves, conds);
            return;
          }
          if (!inner_join(op)) {
            leaves.push_back(&op);
            return;
          }
          for (auto& c : op.as<LogicalJoin>().conditions) conds.push_back(c.get());
          for (auto& c : op.children) collect(*c, leaves, conds);
        };
    std::function<void(const LogicalOperator&)> walk = [&](const LogicalOperator& op) {
      if (set_node(op)) {
        std::vector<const LogicalOperator*> leaves;
        std::vector<const Expr*> conds;
        members.clear();
        collect(op, leaves, conds);
        EXPECT_EQ(fresh.join_set_of(leaves, conds, members), *cq->signer->sign(op).join_set) << sql;
        ++checked;
        checked_members += members.size();
      }
      for (auto& c : op.children) walk(*c);
    };
    walk(*cq->logical);
  }
  EXPECT_GT(checked, 30u);
  EXPECT_GT(checked_members, 5u) << "the semi joins of Q4, Q16, Q18, Q20, Q21, Q22";
}

}  // namespace
}  // namespace hindsight
