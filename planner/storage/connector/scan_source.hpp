#pragma once
#include <memory>
#include <optional>

#include "planner/exec/exec_operator.hpp"
#include "planner/logical/param_writer.hpp"
#include "planner/physical/distribution.hpp"

namespace hindsight {

/// What a connector's TableScanBuilder produces for one PhysicalTableScan: everything the exec builder needs to
/// create the scan operator of each worker, plus the scan's distribution and its pushdown parameters. Immutable
/// once built; shared by the physical plan and every worker instance.
class ScanSource {
 public:
  virtual ~ScanSource() = default;

  /// The registered name of the connector that built it ("columnar", "sqlite").
  virtual const char* connector() const = 0;
  /// Where the scan's rows live across the workers (columns named by the scan's output ColumnIds), or nullopt:
  /// where the catalog's declaration puts them (hash / replicated / random buckets and co-location mappings,
  /// worked out by the physical planner from the TableDef alone).
  virtual std::optional<Distribution> distribution() const = 0;
  /// The limit accepted by offer_limit (-1: none). For people: a scan with a limit does not produce the rows of
  /// its logical Get, so the planner gives it a group of its own.
  virtual int64_t limit() const = 0;
  /// The accepted pushdowns beyond the scan's table, columns and filter: a limit (semantic) and readable text
  /// (display): e.g. "pushdown: filter(s_acctbal > 0.00), project(3 of 7), limit 10" and the SQL a connector runs.
  virtual void write_params(ParamWriter& w) const = 0;
  /// The scan operator of instance `worker`: produces the scan's outputs in order, only rows for which every
  /// accepted filter is TRUE, at most limit() rows.
  virtual std::unique_ptr<ExecOperator> make_operator(ExecContext* ctx, int worker) const = 0;
};

using ScanSourcePtr = std::shared_ptr<const ScanSource>;

}  // namespace hindsight
