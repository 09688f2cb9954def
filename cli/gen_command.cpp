#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "cli/commands.hpp"
#include "planner/catalog/catalog_json.hpp"
#include "planner/common/error.hpp"
#include "planner/storage/tpch_generator.hpp"

namespace hindsight::cli {

namespace {

struct GenFlags {
  double sf = 0;
  double skew = 0;
  uint64_t seed = 42;
  int buckets = 8;
  std::string out;
  bool quiet = false;
};

std::string human_bytes(uint64_t b) {
  if (b >= (uint64_t{1} << 30)) return fmt::format("{:.2f} GB", static_cast<double>(b) / (1 << 30));
  if (b >= (uint64_t{1} << 20)) return fmt::format("{:.1f} MB", static_cast<double>(b) / (1 << 20));
  if (b >= 1024) return fmt::format("{:.1f} KB", static_cast<double>(b) / 1024);
  return fmt::format("{} B", b);
}

int run_gen_tpch(const GenFlags& f) {
  if (!(f.sf > 0) || !std::isfinite(f.sf)) {
    fmt::print(stderr, "hindsight gen tpch: --sf must be a positive number, got {}\n", f.sf);
    return 2;
  }
  if (!(f.skew >= 0) || !std::isfinite(f.skew)) {
    fmt::print(stderr, "hindsight gen tpch: --skew must be >= 0, got {}\n", f.skew);
    return 2;
  }
  if (f.buckets < 1 || f.buckets > kMaxBuckets) {
    fmt::print(stderr, "hindsight gen tpch: --buckets must be between 1 and {}, got {}\n", kMaxBuckets, f.buckets);
    return 2;
  }
  TpchOptions opt;
  opt.sf = f.sf;
  opt.skew = f.skew;
  opt.seed = f.seed;
  opt.out_dir = f.out;
  opt.buckets = f.buckets;
  opt.quiet = f.quiet;
  try {
    auto tables = generate_tpch(opt);
    for (const auto& t : tables)
      fmt::print("{:<9} {:>12} rows {:>10}  {}\n", t.name, t.rows, human_bytes(t.bytes), t.path);
    fmt::print("catalog   {}/catalog.json\n", f.out);
    return 0;
  } catch (const Error& e) {
    fmt::print(stderr, "{}\n", e.format());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "IO_ERROR: {}\n", e.what());
    return 1;
  }
}

}  // namespace

void add_gen_command(CLI::App& app, int& exit_code) {
  auto* gen = app.add_subcommand("gen", "Generate benchmark data sets");
  gen->require_subcommand(1);
  auto flags = std::make_shared<GenFlags>();
  auto* tpch = gen->add_subcommand(
      "tpch",
      "Generate TPC-H data: writes DIR/<table>.csv for region, nation, supplier, customer, part, partsupp, orders\n"
      "and lineitem (header row, comma-separated, dates YYYY-MM-DD, decimals with 2 places) and DIR/catalog.json\n"
      "(schema and distribution: lineitem/orders hashed on the order key, part/partsupp on the part key, customer\n"
      "and supplier on their keys, nation/region replicated). The same seed gives byte-identical files.");
  tpch->add_option("--sf", flags->sf, "Scale factor (1 = about 1 GB, 6M lineitem rows)")->required();
  tpch->add_option("--skew", flags->skew,
                   "Zipf exponent z >= 0 for o_custkey, l_partkey, ps_suppkey/l_suppkey, plus correlated columns "
                   "(segment~nation, shipmode~shipinstruct, type~brand); 0 = uniform as in the spec")
      ->capture_default_str();
  tpch->add_option("--seed", flags->seed, "Random seed")->capture_default_str();
  tpch->add_option("--buckets", flags->buckets, "Buckets of each hash-distributed table")->capture_default_str();
  tpch->add_option("--out", flags->out, "Output folder (created if missing)")->required();
  tpch->add_flag("--quiet,-q", flags->quiet, "No progress lines on stderr");
  tpch->callback([flags, &exit_code] { exit_code = run_gen_tpch(*flags); });
}

}  // namespace hindsight::cli
