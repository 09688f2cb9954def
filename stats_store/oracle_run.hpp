#pragma once
// An oracle replay's figures as the stats store keeps them (table oracle_runs, docs/stats-store.md): per query of
// a workload its time (the median of the replay's runs), work and plan, keyed by the workload's identity and the
// data it ran on, so that a later replay of the same workload on the same data can be compared with the oracle
// plans without replaying them (docs/workload.md "An oracle replay found in the store").
#include <cstdint>
#include <string>
#include <vector>

namespace hindsight::stats {

struct OracleQueryRun {
  std::string name;  ///< the query's name in the workload
  bool ok = false;
  double ms = 0;    ///< replayed time (plan + exec of every attempt; the median with --repeat)
  double work = 0;  ///< plan_work of its final attempt
  std::string plan_hash;
};

struct OracleRun {
  std::string workload_key;  ///< a digest of the workload's query names, texts and settings (and the replay's --set)
  std::string data_key;      ///< a digest of the data versions and row counts of its tables, as replayed
  int64_t recorded_ms = 0;   ///< unix ms
  std::vector<OracleQueryRun> queries;
  /// Rows of this run that could not be read back (a value of the wrong type or out of range): left out.
  size_t corrupt_rows = 0;
};

}  // namespace hindsight::stats
