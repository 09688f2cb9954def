#include "cli/result_format.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "planner/storage/csv_writer.hpp"

namespace hindsight::cli {

namespace {

template <class Fn>
void for_each_row(const StatementResult& r, Fn&& fn) {
  for (auto& b : r.executed.batches)
    for (size_t i = 0; i < b.rows; ++i) fn(b, i);
}

nlohmann::json cell_json(const ColumnVector& c, size_t row) {
  if (c.is_null(row)) return nullptr;
  switch (c.type.id) {
    case TypeId::Boolean: return c.ints[row] != 0;
    case TypeId::Integer:
    case TypeId::BigInt: return c.ints[row];
    case TypeId::Double: return c.dbls[row];
    default: return c.get(row).to_string();
  }
}

}  // namespace

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json error_json(const Error& e) {
  nlohmann::json j = {{"code", error_code_name(e.code())}, {"message", e.message()}};
  if (e.pos().valid()) {
    j["line"] = e.pos().line;
    j["column"] = e.pos().col;
    if (!e.pos().file.empty()) j["file"] = e.pos().file;
  }
  return j;
}

void write_table(const StatementResult& r, std::ostream& out) {
  const auto& names = r.compiled->names;
  // Two passes over the rows, the first for the column widths, so that no cell is kept as text.
  std::vector<size_t> width;
  for (auto& n : names) width.push_back(n.size());
  size_t rows = 0;
  for_each_row(r, [&](const Batch& b, size_t i) {
    for (size_t c = 0; c < b.columns.size(); ++c) width[c] = std::max(width[c], b.columns[c].get(i).to_string().size());
    ++rows;
  });
  std::string line;
  auto cell = [&](size_t c, const std::string& text, bool right) {
    line += c ? " | " : " ";
    line += right ? fmt::format("{:>{}}", text, width[c]) : fmt::format("{:<{}}", text, width[c]);
  };
  for (size_t c = 0; c < names.size(); ++c) cell(c, names[c], false);
  out << line << "\n";
  for (size_t c = 0; c < names.size(); ++c) out << (c ? "-+-" : "-") << std::string(width[c], '-');
  out << "\n";
  for_each_row(r, [&](const Batch& b, size_t i) {
    line.clear();
    for (size_t c = 0; c < b.columns.size(); ++c) cell(c, b.columns[c].get(i).to_string(), r.executed.types[c].is_numeric());
    out << line << "\n";
  });
  out << fmt::format("({} row{})\n", rows, rows == 1 ? "" : "s");
}

void write_csv(const StatementResult& r, std::ostream& out) {
  // The storage writer, so that the output reads back as the same values (docs/csv.md).
  CsvBuffer buf;
  auto flush = [&] {
    out << buf.data();
    buf.clear();
  };
  for (const auto& name : r.compiled->names) buf.text_field(name);
  buf.end_row();
  for_each_row(r, [&](const Batch& b, size_t i) {
    for (const auto& col : b.columns) buf.value_field(col, i);
    buf.end_row();
    if (buf.data().size() > (1 << 16)) flush();
  });
  flush();
}

void write_json(const StatementResult& r, std::ostream& out) {
  // format_json's object without its rows, key by key in the order nlohmann prints them (sorted),
  // with the rows streamed in at their key: the same text as json_text(format_json(r)).
  nlohmann::json j = format_json(r, /*with_rows=*/false);
  if (r.ok()) j["row_count"] = r.executed.row_count();
  const char* sep = "{";
  for (const auto& [key, value] : j.items()) {
    out << sep << json_text(key) << ":";
    sep = ",";
    if (key != "rows") {
      out << json_text(value);
      continue;
    }
    const char* row_sep = "";
    out << "[";
    if (r.ok()) {
      for_each_row(r, [&](const Batch& b, size_t i) {
        nlohmann::json row = nlohmann::json::array();
        for (auto& col : b.columns) row.push_back(cell_json(col, i));
        out << row_sep << json_text(row);
        row_sep = ",";
      });
    }
    out << "]";
  }
  out << "}\n";
}

nlohmann::json regression_guard_json(const StatementResult& r) {
  if (!r.regression_guard) return nullptr;
  const RegressionGuardReport& g = *r.regression_guard;
  return {{"template_signature", g.template_signature}, {"demoted_plan", g.demoted_plan},
          {"demoted_ms", g.demoted_ms},                 {"demoted_runs", g.demoted_runs},
          {"best_plan", g.best_plan},                   {"best_ms", g.best_ms},
          {"best_runs", g.best_runs},                   {"applied", g.applied},
          {"replanned_plan", g.replanned_plan}};
}

nlohmann::json format_json(const StatementResult& r, bool with_rows) {
  nlohmann::json j;
  j["status"] = r.ok() ? "ok" : "failed";
  j["columns"] = nlohmann::json::array();
  j["rows"] = nlohmann::json::array();
  if (r.compiled) {
    for (size_t c = 0; c < r.compiled->names.size(); ++c)
      j["columns"].push_back({{"name", r.compiled->names[c]}, {"type", r.compiled->ctx.column(r.compiled->outputs[c]).type.to_string()}});
  }
  if (r.ok() && with_rows) {
    for_each_row(r, [&](const Batch& b, size_t i) {
      nlohmann::json row = nlohmann::json::array();
      for (auto& col : b.columns) row.push_back(cell_json(col, i));
      j["rows"].push_back(std::move(row));
    });
  }
  j["row_count"] = j["rows"].size();
  j["attempts"] = nlohmann::json::array();
  for (auto& a : r.attempts) {
    nlohmann::json counted = nlohmann::json::array();
    for (const CountedScan& c : a.counted)
      counted.push_back({{"table", c.table}, {"estimate", c.estimate}, {"rows", c.rows}});
    j["attempts"].push_back({{"number", a.number},
                             {"status", a.error ? "failed" : "ok"},
                             {"error", a.error ? error_json(*a.error) : nlohmann::json(nullptr)},
                             {"elapsed_ms", a.elapsed_ms},
                             {"cpu_ms", a.cpu_ms},
                             {"plan_ms", a.plan_ms},
                             {"stats_ms", a.stats_ms},
                             {"peak_memory", a.peak_memory},
                             {"spilled_bytes", a.spilled_bytes},
                             {"plan_hash", a.plan_hash.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.plan_hash)},
                             {"reexec_reason", a.reexec_reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.reexec_reason)},
                             {"reexec_decision",
                              a.reexec_decision.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.reexec_decision)},
                             {"counted_scans", std::move(counted)},
                             {"counting_ms", a.counting_ms},
                             {"spilled_in_place", a.spilled_in_place},
                             {"spill_in_place",
                              a.spill_in_place.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.spill_in_place)}});
  }
  j["warnings"] = r.warnings;
  j["regression_guard"] = regression_guard_json(r);
  if (r.error) j["error"] = error_json(*r.error);
  return j;
}

}  // namespace hindsight::cli
