#pragma once
#include <string>

#include "planner/catalog/table_def.hpp"
#include "planner/storage/load_guard.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

/// Reads a CSV file into a Table bucketed per `def` (see bucketing.hpp). The dialect (docs/csv.md) is RFC 4180 plus:
/// - a header row is required and must name `def`'s columns in order (case-insensitive);
/// - comma separator; fields may be double-quoted, with "" for a quote inside; quoted fields may span lines;
/// - an empty unquoted field is NULL (an error for a non-nullable column); a quoted empty field "" is the empty
///   string for VARCHAR and an error for every other type;
/// - a blank line is a row of one NULL when the table has one column; with more columns it is an error unless
///   only blank lines follow it (trailing blank lines are ignored); the last line end is optional;
/// - \r\n line ends are accepted, a UTF-8 byte-order mark is skipped;
/// - values are parsed per column type (see field_parser.hpp); VARCHAR must be valid UTF-8.
/// Any problem throws DATA_ERROR with SourcePos{path, line, col} (col: 1-based character column where the field
/// starts) naming the column and the offending text; an unreadable file throws IO_ERROR.
/// The result's data_version is left 0 (the loader sets it). `guard` (optional) is asked every few thousand
/// rows with a lower estimate of the bytes loaded so far; what it throws ends the load.
Table read_csv_table(const std::string& path, const TableDef& def, LoadGuard* guard = nullptr);

}  // namespace hindsight
