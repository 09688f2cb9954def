#include "planner/storage/connector/sqlite_pushdown.hpp"

#include <gtest/gtest.h>

#include "planner/storage/connector/connector.hpp"

namespace hindsight {
namespace {

TEST(SqlitePushdownTest, IdentifiersAreQuotedWithEmbeddedQuotesDoubled) {
  EXPECT_EQ(quote_sqlite_identifier("s_name"), "\"s_name\"");
  EXPECT_EQ(quote_sqlite_identifier("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(quote_sqlite_identifier("x\"; DROP TABLE t; --"), "\"x\"\"; DROP TABLE t; --\"");
}

TEST(SqlitePushdownTest, LikeBecomesAnExactGlob) {
  EXPECT_EQ(like_to_glob("abc%"), "abc*");
  EXPECT_EQ(like_to_glob("_b%c_"), "?b*c?");
  EXPECT_EQ(like_to_glob("5*3?[x]"), "5[*]3[?][[]x]");
}

std::shared_ptr<SqliteTable> table_with(std::vector<ColumnDef> cols) {
  auto t = std::make_shared<SqliteTable>();
  t->def.name = "t";
  t->def.connector = "sqlite";
  t->def.columns = cols;
  t->sqlite_table = "t";
  for (auto& c : cols) t->sqlite_columns.push_back(c.name);
  return t;
}

TEST(SqlitePushdownTest, TranslatesOnlyWhatKeepsTheSemantics) {
  auto t = table_with({{"i", DataType::bigint(), true},
                       {"d", DataType::decimal(15, 2), true},
                       {"big", DataType::decimal(18, 2), true},
                       {"s", DataType::varchar(), true},
                       {"dt", DataType::date(), true},
                       {"f", DataType::float64(), true}});
  ScanLayout layout{t, {0, 1, 2, 3, 4, 5}, {10, 11, 12, 13, 14, 15}};
  auto col = [&](ColumnId id) { return Expr::column(id, t->def.columns[id - 10].type); };
  auto cmp = [](ScalarOp op, ExprPtr a, ExprPtr b) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(a));
    args.push_back(std::move(b));
    return Expr::call(op, DataType::boolean(), std::move(args));
  };
  auto term = translate_sqlite_conjunct(*cmp(ScalarOp::Lt, Expr::constant(Value::bigint(5)), col(10)), layout, *t);
  ASSERT_TRUE(term);
  EXPECT_EQ(term->sql, "\"i\" > ?");  // the literal on the left: mirrored
  ASSERT_EQ(term->params.size(), 1u);
  EXPECT_EQ(term->params[0].i, 5);

  term = translate_sqlite_conjunct(*cmp(ScalarOp::Ge, col(11), Expr::constant(Value::decimal(12345, 15, 2))), layout, *t);
  ASSERT_TRUE(term);
  EXPECT_EQ(term->sql, "\"d\" >= ?");
  EXPECT_EQ(term->params[0].d, 123.45);
  // DECIMAL(18,2) does not fit a double exactly: refused.
  EXPECT_FALSE(translate_sqlite_conjunct(*cmp(ScalarOp::Eq, col(12), Expr::constant(Value::decimal(1, 18, 2))), layout, *t));
  term = translate_sqlite_conjunct(*cmp(ScalarOp::Ne, col(13), Expr::constant(Value::varchar("x'"))), layout, *t);
  ASSERT_TRUE(term);
  EXPECT_EQ(term->sql, "\"s\" COLLATE BINARY <> ?");
  EXPECT_EQ(term->params[0].s, "x'");
  term = translate_sqlite_conjunct(*cmp(ScalarOp::Eq, col(14), Expr::constant(Value::date(0))), layout, *t);
  ASSERT_TRUE(term);
  EXPECT_EQ(term->params[0].s, "1970-01-01");
  // NULL literals, column-to-column comparisons and casts are refused.
  EXPECT_FALSE(translate_sqlite_conjunct(*cmp(ScalarOp::Eq, col(10), Expr::constant(Value::null(DataType::bigint()))),
                                         layout, *t));
  EXPECT_FALSE(translate_sqlite_conjunct(*cmp(ScalarOp::Eq, col(10), col(10)), layout, *t));
  EXPECT_FALSE(translate_sqlite_conjunct(
      *cmp(ScalarOp::Eq, Expr::cast(col(10), DataType::float64()), Expr::constant(Value::float64(1.5))), layout, *t));
  // A literal of another type family than the column (no implicit conversions are pushed).
  EXPECT_FALSE(translate_sqlite_conjunct(*cmp(ScalarOp::Eq, col(15), Expr::constant(Value::bigint(1))), layout, *t));
}

TEST(SqlitePushdownTest, RegistryKnowsBothConnectors) {
  EXPECT_NE(find_connector("columnar"), nullptr);
  EXPECT_NE(find_connector("SQLITE"), nullptr);
  EXPECT_EQ(find_connector("oracle"), nullptr);
  TableDef def;
  def.name = "x";
  def.connector = "oracle";
  EXPECT_THROW(connector_for(def), Error);
}

}  // namespace
}  // namespace hindsight
