#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "planner/storage/csv_writer.hpp"
#include "planner/storage/tpch_generator.hpp"
#include "planner/storage/tpch_random.hpp"
#include "planner/storage/tpch_text.hpp"

namespace hindsight::tpch {

/// Rows per generation chunk (orders for orders+lineitem, parts for part+partsupp). Every chunk has its own
/// seeded generator, so output does not depend on how chunks are spread over threads.
constexpr int64_t kChunkRows = 10000;

/// Everything shared (read-only) by the row generators of one run.
class Context {
 public:
  explicit Context(const TpchOptions& options);

  const TpchOptions& options;
  bool skewed;
  int64_t suppliers, parts, customers, orders, clerks;
  int64_t valid_customers;  ///< customers whose key is not a multiple of 3 (the only ones with orders)
  TextPool text;

  /// The 4 suppliers of part `partkey` (its partsupp rows); lineitem draws l_suppkey among them.
  const int64_t* part_suppliers(int64_t partkey) const { return &part_supp_[static_cast<size_t>(partkey - 1) * 4]; }
  /// 0: plain s_comment; 1: "Customer ... Complaints"; 2: "Customer ... Recommends".
  uint8_t supplier_note(int64_t suppkey) const { return supplier_note_[static_cast<size_t>(suppkey - 1)]; }
  /// o_custkey: uniform over customers that place orders, or Zipf-skewed.
  int64_t draw_customer(Rng& rng) const;
  /// l_partkey: uniform, or Zipf-skewed.
  int64_t draw_part(Rng& rng) const;

 private:
  void init_part_suppliers();
  void init_supplier_notes();

  std::unique_ptr<ZipfSampler> customer_zipf_, part_zipf_, supplier_zipf_;
  std::unique_ptr<KeyScrambler> customer_scramble_, part_scramble_, supplier_scramble_;
  std::vector<int64_t> part_supp_;
  std::vector<uint8_t> supplier_note_;
};

/// p_retailprice in cents: (90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000)).
inline int64_t retail_price_cents(int64_t partkey) { return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000); }
/// The sparse order keys of the spec: of each 32 consecutive keys only the first 8 are used.
inline int64_t order_key(int64_t index) { return (index / 8) * 32 + index % 8 + 1; }
/// Key of the k-th (0-based) customer whose key is not a multiple of 3.
inline int64_t valid_customer_key(int64_t k) { return 3 * (k / 2) + k % 2 + 1; }

void gen_region(const Context& ctx, CsvBuffer& out);
void gen_nation(const Context& ctx, CsvBuffer& out);
/// Rows of chunk `chunk`; each returns the number of rows written.
uint64_t gen_suppliers(const Context& ctx, int64_t chunk, CsvBuffer& out);
uint64_t gen_customers(const Context& ctx, int64_t chunk, CsvBuffer& out);
/// Parts and their 4 partsupp rows each; returns parts, adds partsupp rows to `partsupp_rows`.
uint64_t gen_parts(const Context& ctx, int64_t chunk, CsvBuffer& part, CsvBuffer& partsupp, uint64_t& partsupp_rows);
/// Orders and their lines; returns orders, adds lineitem rows to `lineitem_rows`.
uint64_t gen_orders(const Context& ctx, int64_t chunk, CsvBuffer& orders, CsvBuffer& lineitem, uint64_t& lineitem_rows);

}  // namespace hindsight::tpch
