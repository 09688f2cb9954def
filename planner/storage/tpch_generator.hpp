#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/catalog/table_def.hpp"

namespace hindsight {

struct TpchOptions {
  double sf = 1.0;      ///< scale factor: lineitem has about 6,000,000 * sf rows
  double skew = 0;      ///< 0: spec distributions; z > 0: Zipf(z) foreign keys plus correlated columns
  uint64_t seed = 42;   ///< same seed (and options) -> byte-identical files
  std::string out_dir;  ///< created if missing
  int buckets = 8;      ///< buckets of every hash-distributed table
  bool quiet = false;   ///< no progress lines on stderr (they are printed for sf >= 1)
  int threads = 0;      ///< generator threads; 0 = hardware concurrency (the output is the same for any count)
};

/// What generate_tpch wrote for one table.
struct TpchTableSummary {
  std::string name;
  std::string path;
  uint64_t rows = 0;
  uint64_t bytes = 0;
};

/// The TPC-H schema with standard column names (keys BIGINT, integers INTEGER, money and quantities
/// DECIMAL(15,2), dates DATE, text VARCHAR, all NOT NULL) and distributions: lineitem and orders hashed on the
/// order key, part and partsupp on the part key, customer on custkey, supplier on suppkey (all with `buckets`
/// buckets); nation and region replicated. Files are "<table>.csv".
Catalog tpch_catalog(int buckets);

/// Writes the 8 TPC-H tables as CSV (header row, dates YYYY-MM-DD, decimals with 2 places) and catalog.json into
/// options.out_dir. Each file is written under a temporary name and renamed when complete; stale binary caches
/// (.hsc) of the files are removed. Deterministic for a given seed, whatever the number of threads.
/// With skew z > 0: o_custkey, l_partkey and ps_suppkey follow Zipf(z) over their domains (l_suppkey is drawn
/// among the part's partsupp suppliers so lineitem keeps matching partsupp, and so inherits the skew), and
/// c_mktsegment depends on the nation, l_shipmode on l_shipinstruct and p_type on p_brand for most rows.
/// Throws IO_ERROR if the folder or a file cannot be written, INTERNAL for invalid options.
std::vector<TpchTableSummary> generate_tpch(const TpchOptions& options);

}  // namespace hindsight
