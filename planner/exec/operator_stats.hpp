#pragma once
#include <cstdint>

namespace hindsight {

/// What one executable operator did (on one worker, or summed over workers).
struct OperatorStats {
  uint64_t rows_in = 0;     ///< rows consumed from all children
  uint64_t rows_out = 0;    ///< rows produced
  uint64_t batches_out = 0;
  uint64_t bytes_out = 0;   ///< approximate bytes of produced batches
  int64_t peak_memory = 0;  ///< largest memory this operator held charged at once
  /// The live data (see MemoryTracker) this operator held when its charge peaked; peak_memory /
  /// peak_memory_live is its allocation overhead.
  int64_t peak_memory_live = 0;
  uint64_t wall_ns = 0;     ///< inclusive wall time inside next()/open()
  uint64_t cpu_ns = 0;      ///< inclusive thread CPU time inside next()/open()
  /// False when the operator did not run to exhaustion (LIMIT early exit, failed attempt):
  /// its counts are then lower bounds, never exact.
  bool complete = false;
  /// How many worker instances these figures add up (1 for one operator instance).
  uint32_t instances = 1;
  /// A table scan: the rows it is to read from storage and those it has read (before its pushed-down filter);
  /// a scan cut short tells how far it got. 0 for other operators (and scans of connectors that do not count).
  uint64_t rows_to_read = 0;
  uint64_t rows_read = 0;
  /// Spilling (docs/spilling.md): rows and bytes this operator wrote to temporary files (each write counted:
  /// a partition split again counts again), and how many times it started spilling. 0 when it did not.
  uint64_t spilled_rows = 0;
  uint64_t spilled_bytes = 0;
  uint32_t spills = 0;

  void merge(const OperatorStats& o) {
    instances += o.instances;
    rows_in += o.rows_in;
    rows_out += o.rows_out;
    batches_out += o.batches_out;
    bytes_out += o.bytes_out;
    peak_memory += o.peak_memory;  // per-worker peaks add up: workers hold memory at the same time
    peak_memory_live += o.peak_memory_live;
    wall_ns = wall_ns > o.wall_ns ? wall_ns : o.wall_ns;
    cpu_ns += o.cpu_ns;
    complete = complete && o.complete;
    rows_to_read += o.rows_to_read;
    rows_read += o.rows_read;
    spilled_rows += o.spilled_rows;
    spilled_bytes += o.spilled_bytes;
    spills += o.spills;
  }
};

}  // namespace hindsight
