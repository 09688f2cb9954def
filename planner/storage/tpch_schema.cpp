#include "planner/storage/tpch_generator.hpp"

namespace hindsight {

namespace {

struct ColSpec {
  const char* name;
  DataType type;
};

TableDef make_table(const char* name, std::initializer_list<ColSpec> cols, DistributionKind dist,
                    std::vector<std::string> keys, int buckets) {
  TableDef t;
  t.name = name;
  t.file = std::string(name) + ".csv";
  for (const auto& c : cols) t.columns.push_back(ColumnDef{c.name, c.type, false});
  t.distribution = dist;
  t.distribution_columns = std::move(keys);
  t.buckets = dist == DistributionKind::Replicated ? 1 : buckets;
  return t;
}

}  // namespace

Catalog tpch_catalog(int buckets) {
  const DataType key = DataType::bigint(), integer = DataType::integer(), money = DataType::decimal(15, 2),
                 date = DataType::date(), text = DataType::varchar();
  const auto hash = DistributionKind::Hash, replicated = DistributionKind::Replicated;
  Catalog c;
  c.tables.push_back(
      make_table("region", {{"r_regionkey", key}, {"r_name", text}, {"r_comment", text}}, replicated, {}, 1));
  c.tables.push_back(make_table("nation",
                                {{"n_nationkey", key}, {"n_name", text}, {"n_regionkey", key}, {"n_comment", text}},
                                replicated, {}, 1));
  c.tables.push_back(make_table("supplier",
                                {{"s_suppkey", key},
                                 {"s_name", text},
                                 {"s_address", text},
                                 {"s_nationkey", key},
                                 {"s_phone", text},
                                 {"s_acctbal", money},
                                 {"s_comment", text}},
                                hash, {"s_suppkey"}, buckets));
  c.tables.push_back(make_table("part",
                                {{"p_partkey", key},
                                 {"p_name", text},
                                 {"p_mfgr", text},
                                 {"p_brand", text},
                                 {"p_type", text},
                                 {"p_size", integer},
                                 {"p_container", text},
                                 {"p_retailprice", money},
                                 {"p_comment", text}},
                                hash, {"p_partkey"}, buckets));
  c.tables.push_back(make_table("partsupp",
                                {{"ps_partkey", key},
                                 {"ps_suppkey", key},
                                 {"ps_availqty", integer},
                                 {"ps_supplycost", money},
                                 {"ps_comment", text}},
                                hash, {"ps_partkey"}, buckets));
  c.tables.push_back(make_table("customer",
                                {{"c_custkey", key},
                                 {"c_name", text},
                                 {"c_address", text},
                                 {"c_nationkey", key},
                                 {"c_phone", text},
                                 {"c_acctbal", money},
                                 {"c_mktsegment", text},
                                 {"c_comment", text}},
                                hash, {"c_custkey"}, buckets));
  c.tables.push_back(make_table("orders",
                                {{"o_orderkey", key},
                                 {"o_custkey", key},
                                 {"o_orderstatus", text},
                                 {"o_totalprice", money},
                                 {"o_orderdate", date},
                                 {"o_orderpriority", text},
                                 {"o_clerk", text},
                                 {"o_shippriority", integer},
                                 {"o_comment", text}},
                                hash, {"o_orderkey"}, buckets));
  c.tables.push_back(make_table("lineitem",
                                {{"l_orderkey", key},
                                 {"l_partkey", key},
                                 {"l_suppkey", key},
                                 {"l_linenumber", integer},
                                 {"l_quantity", money},
                                 {"l_extendedprice", money},
                                 {"l_discount", money},
                                 {"l_tax", money},
                                 {"l_returnflag", text},
                                 {"l_linestatus", text},
                                 {"l_shipdate", date},
                                 {"l_commitdate", date},
                                 {"l_receiptdate", date},
                                 {"l_shipinstruct", text},
                                 {"l_shipmode", text},
                                 {"l_comment", text}},
                                hash, {"l_orderkey"}, buckets));
  return c;
}

}  // namespace hindsight
