#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "planner/optimizer/stats/table_statistics.hpp"

namespace hindsight {

/// Format version of .stats files; bump it when the layout (or what analyze_table computes) changes: files of
/// another version are ignored and the table is analyzed again.
constexpr uint32_t kStatisticsFileVersion = 4;  // 2: column sets; 3: pattern samples; 4: filter samples

/// Where the statistics files of the data folder `data_dir` live: "<data_dir>/.hindsight/stats" (empty when
/// `data_dir` is empty: nothing is persisted).
std::string statistics_directory(const std::string& data_dir);

/// The file of table `table` in `directory`: "<directory>/<name>.stats" with the name lower-cased and every byte
/// other than [a-z0-9_-] written as %XX, so any table name gives one safe file name.
std::string statistics_file_path(const std::string& directory, const std::string& table);

/// The complete bytes of a statistics file (see statistics_file.cpp for the layout). Values round-trip exactly:
/// type (with DECIMAL precision and scale), NULL flag, int64, double bits and string of every Value.
std::string encode_table_statistics(const TableStatistics& stats);

/// Decodes bytes written by encode_table_statistics. Never throws: returns nullopt and sets `problem` (a short
/// reason such as "bad checksum", "format version 7, expected 1", "truncated") for anything else.
std::optional<TableStatistics> decode_table_statistics(const std::string& bytes, std::string& problem);

/// Result of read_statistics_file: `stats` when the file was read; otherwise `problem` is empty if the file does
/// not exist and says why it was unusable if it does (unreadable, corrupt, truncated, other format version).
struct StatisticsFileRead {
  std::optional<TableStatistics> stats;
  std::string problem;
};
StatisticsFileRead read_statistics_file(const std::string& path);

/// Writes `stats` to `path` atomically (creating the directories, a PendingTempFile in the same folder, fsync,
/// rename): readers see the old file or the new one, never a partial one. Returns false (and leaves no temp file
/// behind) if it cannot, with the reason in `problem`.
bool write_statistics_file(const std::string& path, const TableStatistics& stats, std::string& problem);

/// Removes the temp files that processes killed while writing statistics left in `directory` (see
/// remove_dead_temp_files). Returns how many.
size_t remove_dead_statistics_temp_files(const std::string& directory);

}  // namespace hindsight
