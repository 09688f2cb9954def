#include "planner/storage/tpch_generator.hpp"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

#include "planner/common/date.hpp"
#include "planner/storage/bucketing.hpp"
#include "planner/storage/database.hpp"
#include "planner/storage/tpch_domains.hpp"
#include "storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::read_file;
using storage_test::TempDir;

/// One generated SF 0.01 data set (seed 42, no skew), shared by the tests of this file.
struct Generated {
  explicit Generated(double skew = 0, uint64_t seed = 42, int threads = 0) {
    TpchOptions o;
    o.sf = 0.01;
    o.skew = skew;
    o.seed = seed;
    o.out_dir = dir.path();
    o.quiet = true;
    o.threads = threads;
    summary = generate_tpch(o);
    db = std::make_unique<Database>(dir.path());
  }
  TempDir dir;
  std::vector<TpchTableSummary> summary;
  std::unique_ptr<Database> db;
};

Generated& base() {
  static Generated g;
  return g;
}

/// Column `name` of `table`, all buckets concatenated (the same row order for every column).
ColumnVector col(Database& db, const std::string& table, const std::string& name) {
  TablePtr t = db.table(table);
  int idx = t->def.column_index(name);
  EXPECT_GE(idx, 0) << name;
  ColumnVector out(t->def.columns[static_cast<size_t>(idx)].type);
  for (const auto& bucket : t->buckets) out.append_all(bucket[static_cast<size_t>(idx)]);
  return out;
}

int64_t day(const char* text) {
  int64_t d = 0;
  EXPECT_TRUE(parse_date(text, d));
  return d;
}

/// Largest share of rows taken by one value.
double top_share(const ColumnVector& c) {
  std::map<int64_t, size_t> counts;
  for (int64_t v : c.ints) counts[v]++;
  size_t top = 0;
  for (auto& [v, n] : counts) top = std::max(top, n);
  return static_cast<double>(top) / static_cast<double>(c.ints.size());
}

TEST(TpchGeneratorTest, CardinalitiesAtScaleFactorOneHundredth) {
  Generated& g = base();
  std::map<std::string, uint64_t> rows;
  for (const auto& t : g.summary) {
    rows[t.name] = t.rows;
    EXPECT_EQ(g.db->table(t.name)->row_count, t.rows) << t.name;
    EXPECT_EQ(t.bytes, read_file(t.path).size()) << t.name;
  }
  EXPECT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows["region"], 5u);
  EXPECT_EQ(rows["nation"], 25u);
  EXPECT_EQ(rows["supplier"], 100u);
  EXPECT_EQ(rows["part"], 2000u);
  EXPECT_EQ(rows["partsupp"], 8000u);
  EXPECT_EQ(rows["customer"], 1500u);
  EXPECT_EQ(rows["orders"], 15000u);
  EXPECT_GT(rows["lineitem"], 15000u * 38 / 10);  // 1..7 lines per order, 4 on average
  EXPECT_LT(rows["lineitem"], 15000u * 42 / 10);

  const Catalog& c = g.db->catalog();
  EXPECT_EQ(c.find("lineitem")->distribution_columns, std::vector<std::string>{"l_orderkey"});
  EXPECT_EQ(c.find("orders")->buckets, c.find("lineitem")->buckets);
  EXPECT_EQ(c.find("partsupp")->distribution_columns, std::vector<std::string>{"ps_partkey"});
  EXPECT_EQ(c.find("nation")->distribution, DistributionKind::Replicated);
  EXPECT_EQ(c.find("region")->distribution, DistributionKind::Replicated);
  EXPECT_EQ(c.find("lineitem")->columns[4].type, DataType::decimal(15, 2));
  EXPECT_EQ(c.find("orders")->columns[4].type, DataType::date());
}

TEST(TpchGeneratorTest, SameSeedSameBytesOtherSeedOtherData) {
  Generated& a = base();
  Generated b;
  for (size_t i = 0; i < a.summary.size(); ++i)
    EXPECT_TRUE(read_file(a.summary[i].path) == read_file(b.summary[i].path)) << a.summary[i].name;
  EXPECT_EQ(read_file(a.dir.file("catalog.json")), read_file(b.dir.file("catalog.json")));

  Generated serial(0, 42, 1), parallel(0, 42, 3);  // chunks are seeded, threads only change who makes them
  for (size_t i = 0; i < a.summary.size(); ++i)
    EXPECT_TRUE(read_file(serial.summary[i].path) == read_file(parallel.summary[i].path)) << a.summary[i].name;

  Generated c(0, 7);
  EXPECT_NE(read_file(a.dir.file("lineitem.csv")), read_file(c.dir.file("lineitem.csv")));
  EXPECT_NE(read_file(a.dir.file("orders.csv")), read_file(c.dir.file("orders.csv")));
  EXPECT_NE(read_file(a.dir.file("customer.csv")), read_file(c.dir.file("customer.csv")));
}

TEST(TpchGeneratorTest, NationsRegionsAndPhones) {
  Database& db = *base().db;
  ColumnVector nkey = col(db, "nation", "n_nationkey"), nname = col(db, "nation", "n_name"),
               nreg = col(db, "nation", "n_regionkey"), rname = col(db, "region", "r_name");
  ASSERT_EQ(nkey.size(), 25u);
  EXPECT_EQ(nname.strs[24], "UNITED STATES");
  EXPECT_EQ(nreg.ints[24], 1);
  EXPECT_EQ(nname.strs[6], "FRANCE");
  EXPECT_EQ(nreg.ints[6], 3);
  EXPECT_EQ(rname.strs, (std::vector<std::string>{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}));
  std::map<int64_t, int> per_region;
  for (int64_t r : nreg.ints) per_region[r]++;
  for (auto& [r, n] : per_region) EXPECT_EQ(n, 5) << "region " << r;

  for (const char* t : {"customer", "supplier"}) {
    std::string p = t[0] == 'c' ? "c_" : "s_";
    ColumnVector phone = col(db, t, p + "phone"), nation = col(db, t, p + "nationkey"), bal = col(db, t, p + "acctbal");
    for (size_t r = 0; r < phone.size(); ++r) {
      ASSERT_EQ(phone.strs[r].substr(0, 3), std::to_string(nation.ints[r] + 10) + "-") << phone.strs[r];
      ASSERT_EQ(phone.strs[r].size(), 15u);
      ASSERT_TRUE(bal.ints[r] >= -99999 && bal.ints[r] <= 999999);
    }
  }
  std::set<std::string> segments(tpch::kSegments.begin(), tpch::kSegments.end());
  for (const auto& s : col(db, "customer", "c_mktsegment").strs) ASSERT_TRUE(segments.count(s)) << s;
}

TEST(TpchGeneratorTest, PartsAndPartsupp) {
  Database& db = *base().db;
  ColumnVector key = col(db, "part", "p_partkey"), name = col(db, "part", "p_name"), mfgr = col(db, "part", "p_mfgr"),
               brand = col(db, "part", "p_brand"), type = col(db, "part", "p_type"), size = col(db, "part", "p_size"),
               container = col(db, "part", "p_container"), price = col(db, "part", "p_retailprice");
  std::regex type_re(
      "(STANDARD|SMALL|MEDIUM|LARGE|ECONOMY|PROMO) (ANODIZED|BURNISHED|PLATED|POLISHED|BRUSHED) "
      "(TIN|NICKEL|BRASS|STEEL|COPPER)");
  std::regex container_re("(SM|LG|MED|JUMBO|WRAP) (CASE|BOX|BAG|JAR|PKG|PACK|CAN|DRUM)");
  std::set<std::string> colors(tpch::kColors.begin(), tpch::kColors.end());
  for (size_t r = 0; r < key.size(); ++r) {
    int64_t k = key.ints[r];
    ASSERT_EQ(price.ints[r], 90000 + (k / 10) % 20001 + 100 * (k % 1000));
    ASSERT_TRUE(std::regex_match(type.strs[r], type_re)) << type.strs[r];
    ASSERT_TRUE(std::regex_match(container.strs[r], container_re)) << container.strs[r];
    ASSERT_TRUE(size.ints[r] >= 1 && size.ints[r] <= 50);
    ASSERT_EQ(brand.strs[r].substr(0, 6), "Brand#");
    ASSERT_EQ(brand.strs[r][6], mfgr.strs[r].back());  // Brand#MN with M of Manufacturer#M
    std::set<std::string> words;
    std::istringstream in(name.strs[r]);
    for (std::string w; in >> w;) {
      ASSERT_TRUE(colors.count(w)) << w;
      words.insert(w);
    }
    ASSERT_EQ(words.size(), 5u) << name.strs[r];
  }
  ColumnVector ps_part = col(db, "partsupp", "ps_partkey"), ps_supp = col(db, "partsupp", "ps_suppkey");
  std::map<int64_t, std::set<int64_t>> supps;
  for (size_t r = 0; r < ps_part.size(); ++r) supps[ps_part.ints[r]].insert(ps_supp.ints[r]);
  ASSERT_EQ(supps.size(), 2000u);
  const int64_t s = 100;
  for (auto& [p, set] : supps) {
    ASSERT_EQ(set.size(), 4u) << "part " << p;
    for (int64_t i = 0; i < 4; ++i) ASSERT_TRUE(set.count((p + i * (s / 4 + (p - 1) / s)) % s + 1)) << p;
  }
}

TEST(TpchGeneratorTest, OrdersAndLineitemFollowTheSpecRules) {
  Database& db = *base().db;
  ColumnVector okey = col(db, "orders", "o_orderkey"), cust = col(db, "orders", "o_custkey"),
               status = col(db, "orders", "o_orderstatus"), total = col(db, "orders", "o_totalprice"),
               odate = col(db, "orders", "o_orderdate"), prio = col(db, "orders", "o_orderpriority");
  struct Order {
    int64_t date, total;
    char status;
    int lines = 0, open = 0;
    int64_t sum = 0;
  };
  std::map<int64_t, Order> orders;
  std::set<std::string> prios(tpch::kPriorities.begin(), tpch::kPriorities.end());
  for (size_t r = 0; r < okey.size(); ++r) {
    int64_t k = okey.ints[r];
    ASSERT_LT((k - 1) % 32, 8) << "sparse order keys";
    ASSERT_NE(cust.ints[r] % 3, 0) << "custkey % 3 == 0 places no orders";
    ASSERT_TRUE(cust.ints[r] >= 1 && cust.ints[r] <= 1500);
    ASSERT_TRUE(odate.ints[r] >= day("1992-01-01") && odate.ints[r] <= day("1998-12-31") - 151);
    ASSERT_TRUE(prios.count(prio.strs[r]));
    orders[k] = Order{odate.ints[r], total.ints[r], status.strs[r][0]};
  }
  ASSERT_EQ(orders.size(), 15000u);

  std::set<std::pair<int64_t, int64_t>> partsupp;
  ColumnVector ps_part = col(db, "partsupp", "ps_partkey"), ps_supp = col(db, "partsupp", "ps_suppkey");
  for (size_t r = 0; r < ps_part.size(); ++r) partsupp.insert({ps_part.ints[r], ps_supp.ints[r]});

  const int64_t current = day("1995-06-17");
  auto L = [&](const char* c) { return col(db, "lineitem", c); };
  ColumnVector lok = L("l_orderkey"), lpart = L("l_partkey"), lsupp = L("l_suppkey"), qty = L("l_quantity"),
               ext = L("l_extendedprice"), disc = L("l_discount"), tax = L("l_tax"), flag = L("l_returnflag"),
               lstatus = L("l_linestatus"), ship = L("l_shipdate"), commit = L("l_commitdate"),
               receipt = L("l_receiptdate"), mode = L("l_shipmode"), instr = L("l_shipinstruct"),
               lnum = L("l_linenumber");
  std::set<std::string> modes(tpch::kShipModes.begin(), tpch::kShipModes.end());
  std::set<std::string> instructs(tpch::kShipInstructs.begin(), tpch::kShipInstructs.end());
  for (size_t r = 0; r < lok.size(); ++r) {
    auto it = orders.find(lok.ints[r]);
    ASSERT_NE(it, orders.end());
    Order& o = it->second;
    ASSERT_TRUE(ship.ints[r] - o.date >= 1 && ship.ints[r] - o.date <= 121);
    ASSERT_TRUE(commit.ints[r] - o.date >= 30 && commit.ints[r] - o.date <= 90);
    ASSERT_TRUE(receipt.ints[r] - ship.ints[r] >= 1 && receipt.ints[r] - ship.ints[r] <= 30);
    std::string expected_flags = receipt.ints[r] <= current ? "RA" : "N";
    ASSERT_NE(expected_flags.find(flag.strs[r]), std::string::npos) << flag.strs[r];
    ASSERT_EQ(flag.strs[r].size(), 1u);
    ASSERT_EQ(lstatus.strs[r], ship.ints[r] > current ? "O" : "F");
    ASSERT_TRUE(qty.ints[r] >= 100 && qty.ints[r] <= 5000 && qty.ints[r] % 100 == 0);
    int64_t p = lpart.ints[r];
    ASSERT_EQ(ext.ints[r], qty.ints[r] / 100 * (90000 + (p / 10) % 20001 + 100 * (p % 1000)));
    ASSERT_TRUE(disc.ints[r] >= 0 && disc.ints[r] <= 10);
    ASSERT_TRUE(tax.ints[r] >= 0 && tax.ints[r] <= 8);
    ASSERT_TRUE(partsupp.count({p, lsupp.ints[r]})) << "lineitem part/supplier not in partsupp";
    ASSERT_TRUE(modes.count(mode.strs[r]) && instructs.count(instr.strs[r]));
    ASSERT_TRUE(lnum.ints[r] >= 1 && lnum.ints[r] <= 7);
    o.lines++;
    o.open += lstatus.strs[r] == "O";
    o.sum += (ext.ints[r] * (100 - disc.ints[r]) * (100 + tax.ints[r]) + 5000) / 10000;
  }
  for (auto& [k, o] : orders) {
    ASSERT_TRUE(o.lines >= 1 && o.lines <= 7) << k;
    char expected = o.open == 0 ? 'F' : o.open == o.lines ? 'O' : 'P';
    ASSERT_EQ(o.status, expected) << "order " << k;
    ASSERT_EQ(o.total, o.sum) << "order " << k;
  }
}

TEST(TpchGeneratorTest, CommentsCarryThePhrasesQueriesLookFor) {
  Database& db = *base().db;
  std::regex complaints(".*Customer.*Complaints.*"), requests(".*special.*requests.*");
  int with_complaints = 0, with_requests = 0;
  for (const auto& s : col(db, "supplier", "s_comment").strs) {
    with_complaints += std::regex_match(s, complaints);
    ASSERT_TRUE(s.size() >= 25 && s.size() <= 100) << s;
  }
  ColumnVector oc = col(db, "orders", "o_comment");
  for (const auto& s : oc.strs) with_requests += std::regex_match(s, requests);
  EXPECT_GE(with_complaints, 1);
  EXPECT_LE(with_complaints, 5);
  EXPECT_GT(with_requests, 15000 / 200);  // about 1% or more
  EXPECT_LT(with_requests, 15000 / 10);
}

TEST(TpchGeneratorTest, OrdersAndLineitemOfAnOrderShareABucket) {
  Database& db = *base().db;
  TablePtr orders = db.table("orders"), lineitem = db.table("lineitem");
  ASSERT_EQ(orders->buckets.size(), 8u);
  ASSERT_EQ(lineitem->buckets.size(), 8u);
  std::map<int64_t, size_t> bucket_of_order;
  for (size_t b = 0; b < orders->buckets.size(); ++b) {
    EXPECT_GT(orders->buckets[b][0].size(), 15000u / 8 / 2);
    for (int64_t k : orders->buckets[b][0].ints) {
      bucket_of_order[k] = b;
      ASSERT_EQ(static_cast<size_t>(bucket_of(hash_combine(0, hash_int64(k)), 8)), b);
    }
  }
  for (size_t b = 0; b < lineitem->buckets.size(); ++b)
    for (int64_t k : lineitem->buckets[b][0].ints) ASSERT_EQ(bucket_of_order.at(k), b) << "orderkey " << k;
}

TEST(TpchGeneratorTest, SkewConcentratesKeysAndCorrelatesColumns) {
  Database& flat = *base().db;
  Generated skewed(1.0);
  Database& z = *skewed.db;
  double flat_cust = top_share(col(flat, "orders", "o_custkey")), z_cust = top_share(col(z, "orders", "o_custkey"));
  EXPECT_LT(flat_cust, 0.01);
  EXPECT_GT(z_cust, 0.05);
  EXPECT_GT(z_cust, 10 * flat_cust);
  EXPECT_GT(top_share(col(z, "lineitem", "l_partkey")), 10 * top_share(col(flat, "lineitem", "l_partkey")));
  EXPECT_GT(top_share(col(z, "partsupp", "ps_suppkey")), 5 * top_share(col(flat, "partsupp", "ps_suppkey")));
  EXPECT_GT(top_share(col(z, "lineitem", "l_suppkey")), 5 * top_share(col(flat, "lineitem", "l_suppkey")));
  for (int64_t k : col(z, "orders", "o_custkey").ints) ASSERT_NE(k % 3, 0);

  // The same referential rules hold: every lineitem (part, supplier) is a partsupp row, 4 suppliers per part.
  std::set<std::pair<int64_t, int64_t>> ps;
  ColumnVector pp = col(z, "partsupp", "ps_partkey"), pss = col(z, "partsupp", "ps_suppkey");
  for (size_t r = 0; r < pp.size(); ++r) ps.insert({pp.ints[r], pss.ints[r]});
  EXPECT_EQ(ps.size(), 8000u);
  ColumnVector lp = col(z, "lineitem", "l_partkey"), ls = col(z, "lineitem", "l_suppkey");
  for (size_t r = 0; r < lp.size(); ++r) ASSERT_TRUE(ps.count({lp.ints[r], ls.ints[r]}));

  auto segment_follows_nation = [](Database& db) {
    ColumnVector seg = col(db, "customer", "c_mktsegment"), nation = col(db, "customer", "c_nationkey");
    size_t hits = 0;
    for (size_t r = 0; r < seg.size(); ++r)
      hits += seg.strs[r] == tpch::kSegments[static_cast<size_t>(nation.ints[r] % 5)];
    return static_cast<double>(hits) / static_cast<double>(seg.size());
  };
  EXPECT_LT(segment_follows_nation(flat), 0.3);
  EXPECT_GT(segment_follows_nation(z), 0.8);
  auto air_share_when_delivered_in_person = [](Database& db) {
    ColumnVector mode = col(db, "lineitem", "l_shipmode"), instr = col(db, "lineitem", "l_shipinstruct");
    size_t in_person = 0, air = 0;
    for (size_t r = 0; r < mode.size(); ++r)
      if (instr.strs[r] == "DELIVER IN PERSON") in_person++, air += mode.strs[r] == "AIR" || mode.strs[r] == "REG AIR";
    return static_cast<double>(air) / static_cast<double>(in_person);
  };
  EXPECT_LT(air_share_when_delivered_in_person(flat), 0.4);
  EXPECT_GT(air_share_when_delivered_in_person(z), 0.7);
}

TEST(TpchGeneratorTest, RejectsBadOptionsAndUnwritableFolders) {
  TempDir dir;
  TpchOptions o;
  o.out_dir = dir.path();
  o.sf = 0;
  EXPECT_THROW(generate_tpch(o), Error);
  o.sf = 0.01;
  o.skew = -1;
  EXPECT_THROW(generate_tpch(o), Error);
  o.skew = 0;
  storage_test::write_file(dir.file("file"), "x");
  o.out_dir = dir.file("file") + "/sub";
  storage_test::expect_throws([&] { generate_tpch(o); }, ErrorCode::IO_ERROR);
}

}  // namespace
}  // namespace hindsight
