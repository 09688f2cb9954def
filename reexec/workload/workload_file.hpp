#pragma once
#include <string>

#include "reexec/workload/workload.pb.h"

namespace hindsight::workload {

/// The workload file format version written (Workload::format_version and the header's).
constexpr uint32_t kWorkloadFormatVersion = 1;

/// A `.hsw` file: 8 bytes of magic ("HSWKLD\\r\\n": a text tool or a transfer that rewrites line ends breaks it
/// visibly), u32 format version, u64 payload length, u64 XXH3-64 of the payload (all little-endian), then the
/// payload: one serialized Workload message. Written to a temporary file in the same folder and renamed, so a
/// reader never sees half a file. Throws IO_ERROR when it cannot write.
void write_workload(const Workload& w, const std::string& path);

/// Reads a `.hsw` file. A missing or unreadable file is an IO_ERROR; an empty, truncated, corrupt or foreign one
/// (not a workload file, another format version) a DATA_ERROR that says which, with the path.
Workload read_workload(const std::string& path);

/// The workload as JSON, through protobuf's own JSON printer (field names as in the .proto).
std::string workload_json(const Workload& w);

}  // namespace hindsight::workload
