#include <fmt/format.h>

#include <algorithm>

#include "planner/common/date.hpp"
#include "planner/storage/tpch_context.hpp"
#include "planner/storage/tpch_domains.hpp"

namespace hindsight::tpch {

namespace {

// Stream ids for derive_seed: each table draws from its own streams.
enum Stream : uint64_t { kRegion = 1, kNation, kSupplier, kCustomer, kPart, kOrders };

const int64_t kStartDate = days_from_civil(1992, 1, 1);
const int64_t kEndDate = days_from_civil(1998, 12, 31);
const int64_t kCurrentDate = days_from_civil(1995, 6, 17);

template <typename A>
std::string_view pick(Rng& rng, const A& values) {
  return values[static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(values.size()) - 1))];
}

/// "Supplier#000000042"
void padded_name(CsvBuffer& out, const char* prefix, int64_t key) {
  char tmp[64];
  auto end = fmt::format_to_n(tmp, sizeof tmp, "{}{:09d}", prefix, key).out;
  out.plain_field(std::string_view(tmp, static_cast<size_t>(end - tmp)));
}

/// Phone "CC-LLL-LLL-LLLL" with country code nationkey + 10.
void phone(CsvBuffer& out, Rng& rng, int64_t nationkey) {
  char tmp[32];
  auto end = fmt::format_to_n(tmp, sizeof tmp, "{}-{}-{}-{}", nationkey + 10, rng.uniform(100, 999),
                              rng.uniform(100, 999), rng.uniform(1000, 9999))
                 .out;
  out.plain_field(std::string_view(tmp, static_cast<size_t>(end - tmp)));
}

std::pair<int64_t, int64_t> chunk_range(int64_t chunk, int64_t total) {
  int64_t first = chunk * kChunkRows;
  return {first, std::min(total, first + kChunkRows)};
}

}  // namespace

void gen_region(const Context& ctx, CsvBuffer& out) {
  Rng rng(derive_seed(ctx.options.seed, kRegion, 0));
  for (size_t r = 0; r < kRegions.size(); ++r) {
    out.int_field(static_cast<int64_t>(r));
    out.plain_field(kRegions[r]);
    out.plain_field(ctx.text.comment(rng, 31, 115));
    out.end_row();
  }
}

void gen_nation(const Context& ctx, CsvBuffer& out) {
  Rng rng(derive_seed(ctx.options.seed, kNation, 0));
  for (size_t n = 0; n < kNations.size(); ++n) {
    out.int_field(static_cast<int64_t>(n));
    out.plain_field(kNations[n].name);
    out.int_field(kNations[n].region);
    out.plain_field(ctx.text.comment(rng, 31, 114));
    out.end_row();
  }
}

uint64_t gen_suppliers(const Context& ctx, int64_t chunk, CsvBuffer& out) {
  Rng rng(derive_seed(ctx.options.seed, kSupplier, static_cast<uint64_t>(chunk)));
  auto [first, last] = chunk_range(chunk, ctx.suppliers);
  std::string address;
  for (int64_t i = first; i < last; ++i) {
    int64_t key = i + 1;
    out.int_field(key);
    padded_name(out, "Supplier#", key);
    random_vstring(rng, 10, 40, address);
    out.plain_field(address);
    int64_t nation = rng.uniform(0, 24);
    out.int_field(nation);
    phone(out, rng, nation);
    out.decimal_field(rng.uniform(-99999, 999999));
    switch (ctx.supplier_note(key)) {
      case 1:
        out.plain_field(ctx.text.comment_with(rng, 25, 100, "Customer", "Complaints"));
        break;
      case 2:
        out.plain_field(ctx.text.comment_with(rng, 25, 100, "Customer", "Recommends"));
        break;
      default:
        out.plain_field(ctx.text.comment(rng, 25, 100));
        break;
    }
    out.end_row();
  }
  return static_cast<uint64_t>(last - first);
}

uint64_t gen_customers(const Context& ctx, int64_t chunk, CsvBuffer& out) {
  Rng rng(derive_seed(ctx.options.seed, kCustomer, static_cast<uint64_t>(chunk)));
  auto [first, last] = chunk_range(chunk, ctx.customers);
  std::string address;
  for (int64_t i = first; i < last; ++i) {
    int64_t key = i + 1;
    out.int_field(key);
    padded_name(out, "Customer#", key);
    random_vstring(rng, 10, 40, address);
    out.plain_field(address);
    int64_t nation = rng.uniform(0, 24);
    out.int_field(nation);
    phone(out, rng, nation);
    out.decimal_field(rng.uniform(-99999, 999999));
    std::string_view segment = pick(rng, kSegments);
    // Skewed data: the nation decides the market segment for most customers.
    if (ctx.skewed && rng.chance(0.9)) segment = kSegments[static_cast<size_t>(nation % 5)];
    out.plain_field(segment);
    out.plain_field(ctx.text.comment(rng, 29, 116));
    out.end_row();
  }
  return static_cast<uint64_t>(last - first);
}

uint64_t gen_parts(const Context& ctx, int64_t chunk, CsvBuffer& part, CsvBuffer& partsupp, uint64_t& partsupp_rows) {
  Rng rng(derive_seed(ctx.options.seed, kPart, static_cast<uint64_t>(chunk)));
  auto [first, last] = chunk_range(chunk, ctx.parts);
  std::string text;
  for (int64_t i = first; i < last; ++i) {
    int64_t key = i + 1;
    part.int_field(key);
    size_t colors[5];
    for (int c = 0; c < 5; ++c) {
      do colors[c] = static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(kColors.size()) - 1));
      while (std::find(colors, colors + c, colors[c]) != colors + c);
    }
    text.clear();
    for (int c = 0; c < 5; ++c) (text += c ? " " : "") += kColors[colors[c]];
    part.plain_field(text);
    int64_t m = rng.uniform(1, 5), n = rng.uniform(1, 5);
    part.plain_field(fmt::format("Manufacturer#{}", m));
    part.plain_field(fmt::format("Brand#{}{}", m, n));
    size_t s1 = static_cast<size_t>(rng.uniform(0, 5)), s2 = static_cast<size_t>(rng.uniform(0, 4)),
           s3 = static_cast<size_t>(rng.uniform(0, 4));
    // Skewed data: the brand decides the type's first and last syllables for most parts.
    if (ctx.skewed && rng.chance(0.8)) s1 = static_cast<size_t>(m - 1), s3 = static_cast<size_t>(n - 1);
    part.plain_field(fmt::format("{} {} {}", kTypeSyllable1[s1], kTypeSyllable2[s2], kTypeSyllable3[s3]));
    part.int_field(rng.uniform(1, 50));
    part.plain_field(fmt::format("{} {}", pick(rng, kContainerSyllable1), pick(rng, kContainerSyllable2)));
    part.decimal_field(retail_price_cents(key));
    part.plain_field(ctx.text.comment(rng, 5, 22));
    part.end_row();

    const int64_t* supps = ctx.part_suppliers(key);
    for (int k = 0; k < 4; ++k) {
      partsupp.int_field(key);
      partsupp.int_field(supps[k]);
      partsupp.int_field(rng.uniform(1, 9999));
      partsupp.decimal_field(rng.uniform(100, 100000));
      partsupp.plain_field(ctx.text.comment(rng, 49, 198));
      partsupp.end_row();
    }
    partsupp_rows += 4;
  }
  return static_cast<uint64_t>(last - first);
}

uint64_t gen_orders(const Context& ctx, int64_t chunk, CsvBuffer& orders, CsvBuffer& lineitem,
                    uint64_t& lineitem_rows) {
  Rng rng(derive_seed(ctx.options.seed, kOrders, static_cast<uint64_t>(chunk)));
  auto [first, last] = chunk_range(chunk, ctx.orders);
  std::string clerk;
  for (int64_t i = first; i < last; ++i) {
    int64_t okey = order_key(i);
    int64_t custkey = ctx.draw_customer(rng);
    int64_t odate = rng.uniform(kStartDate, kEndDate - 151);
    int64_t lines = rng.uniform(1, 7);
    int64_t total = 0;
    int shipped = 0;
    for (int64_t ln = 1; ln <= lines; ++ln) {
      int64_t pkey = ctx.draw_part(rng);
      int64_t skey = ctx.part_suppliers(pkey)[rng.uniform(0, 3)];
      int64_t qty = rng.uniform(1, 50);
      int64_t price = qty * retail_price_cents(pkey);
      int64_t discount = rng.uniform(0, 10), tax = rng.uniform(0, 8);
      int64_t ship = odate + rng.uniform(1, 121), commit = odate + rng.uniform(30, 90);
      int64_t receipt = ship + rng.uniform(1, 30);
      std::string_view flag = receipt <= kCurrentDate ? (rng.uniform(0, 1) ? "R" : "A") : "N";
      bool open = ship > kCurrentDate;
      shipped += open ? 0 : 1;
      size_t instruct = static_cast<size_t>(rng.uniform(0, 3));
      size_t mode = static_cast<size_t>(rng.uniform(0, 6));
      // Skewed data: the ship instruction mostly decides the mode (0,1 -> REG AIR/AIR, 2,3 -> RAIL/SHIP...).
      if (ctx.skewed && rng.chance(0.8)) mode = (instruct * 2 + static_cast<size_t>(rng.uniform(0, 1))) % 7;
      // Amounts in cents; the line's charge is rounded to the cent before summing into o_totalprice.
      total += (price * (100 - discount) * (100 + tax) + 5000) / 10000;

      lineitem.int_field(okey);
      lineitem.int_field(pkey);
      lineitem.int_field(skey);
      lineitem.int_field(ln);
      lineitem.decimal_field(qty * 100);
      lineitem.decimal_field(price);
      lineitem.decimal_field(discount);
      lineitem.decimal_field(tax);
      lineitem.plain_field(flag);
      lineitem.plain_field(open ? "O" : "F");
      lineitem.date_field(ship);
      lineitem.date_field(commit);
      lineitem.date_field(receipt);
      lineitem.plain_field(kShipInstructs[instruct]);
      lineitem.plain_field(kShipModes[mode]);
      lineitem.plain_field(ctx.text.comment(rng, 10, 43));
      lineitem.end_row();
    }
    lineitem_rows += static_cast<uint64_t>(lines);

    orders.int_field(okey);
    orders.int_field(custkey);
    orders.plain_field(shipped == lines ? "F" : shipped == 0 ? "O" : "P");
    orders.decimal_field(total);
    orders.date_field(odate);
    orders.plain_field(pick(rng, kPriorities));
    padded_name(orders, "Clerk#", rng.uniform(1, ctx.clerks));
    orders.int_field(0);
    if (rng.chance(0.01))
      orders.plain_field(ctx.text.comment_with(rng, 19, 78, "special", "requests"));
    else
      orders.plain_field(ctx.text.comment(rng, 19, 78));
    orders.end_row();
  }
  return static_cast<uint64_t>(last - first);
}

}  // namespace hindsight::tpch
