#pragma once
#include <string>

#include "planner/catalog/table_def.hpp"

namespace hindsight {

/// Reads and validates `<data_dir>/catalog.json`:
///   {"tables": [{"name": "orders", "file": "orders.csv",
///                "columns": [{"name": "o_orderkey", "type": "BIGINT", "nullable": false}, ...],
///                "distribution": {"kind": "hash", "columns": ["o_orderkey"], "buckets": 8}}, ...]}
/// `kind` is hash | replicated | random; `nullable` defaults to true; `distribution` defaults to random with
/// 1 bucket; `buckets` defaults to 1 and must be in [1, 4096] (replicated tables always have 1).
/// Throws IO_ERROR if the file is missing or unreadable, DATA_ERROR (with file:line:col) for malformed JSON and
/// DATA_ERROR naming the table and field for semantic problems.
Catalog load_catalog(const std::string& data_dir);

/// Parses catalog text as if read from `path` (which only names the source in errors). `folder` becomes
/// Catalog::folder.
Catalog parse_catalog(const std::string& text, const std::string& path, const std::string& folder);

/// The catalog.json text for `catalog` (pretty-printed, loadable by load_catalog).
std::string catalog_to_json(const Catalog& catalog);

/// Upper bound on declared buckets.
constexpr int kMaxBuckets = 4096;

}  // namespace hindsight
