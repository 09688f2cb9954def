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

std::string format_table(const StatementResult& r) {
  const auto& names = r.compiled->names;
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> width;
  for (auto& n : names) width.push_back(n.size());
  for_each_row(r, [&](const Batch& b, size_t i) {
    std::vector<std::string> row;
    for (size_t c = 0; c < b.columns.size(); ++c) {
      row.push_back(b.columns[c].get(i).to_string());
      width[c] = std::max(width[c], row.back().size());
    }
    cells.push_back(std::move(row));
  });
  std::string out;
  auto line = [&](const std::vector<std::string>& row, const std::vector<DataType>* types) {
    for (size_t c = 0; c < row.size(); ++c) {
      bool right = types && (*types)[c].is_numeric();
      out += c ? " | " : " ";
      out += right ? fmt::format("{:>{}}", row[c], width[c]) : fmt::format("{:<{}}", row[c], width[c]);
    }
    out += "\n";
  };
  line(names, nullptr);
  for (size_t c = 0; c < names.size(); ++c) out += (c ? "-+-" : "-") + std::string(width[c], '-');
  out += "\n";
  for (auto& row : cells) line(row, &r.executed.types);
  out += fmt::format("({} row{})\n", cells.size(), cells.size() == 1 ? "" : "s");
  return out;
}

std::string format_csv(const StatementResult& r) {
  // The storage writer, so that the output reads back as the same values (docs/csv.md).
  CsvBuffer out;
  for (const auto& name : r.compiled->names) out.text_field(name);
  out.end_row();
  for_each_row(r, [&](const Batch& b, size_t i) {
    for (const auto& col : b.columns) out.value_field(col, i);
    out.end_row();
  });
  return out.data();
}

nlohmann::json format_json(const StatementResult& r) {
  nlohmann::json j;
  j["status"] = r.ok() ? "ok" : "failed";
  j["columns"] = nlohmann::json::array();
  j["rows"] = nlohmann::json::array();
  if (r.compiled) {
    for (size_t c = 0; c < r.compiled->names.size(); ++c)
      j["columns"].push_back({{"name", r.compiled->names[c]}, {"type", r.compiled->ctx.column(r.compiled->outputs[c]).type.to_string()}});
  }
  if (r.ok()) {
    for_each_row(r, [&](const Batch& b, size_t i) {
      nlohmann::json row = nlohmann::json::array();
      for (auto& col : b.columns) row.push_back(cell_json(col, i));
      j["rows"].push_back(std::move(row));
    });
  }
  j["row_count"] = j["rows"].size();
  j["attempts"] = nlohmann::json::array();
  for (auto& a : r.attempts) {
    j["attempts"].push_back({{"number", a.number},
                             {"status", a.error ? "failed" : "ok"},
                             {"error", a.error ? error_json(*a.error) : nlohmann::json(nullptr)},
                             {"elapsed_ms", a.elapsed_ms},
                             {"plan_hash", a.plan_hash.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.plan_hash)},
                             {"reexec_reason", a.reexec_reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.reexec_reason)}});
  }
  if (r.error) j["error"] = error_json(*r.error);
  return j;
}

}  // namespace hindsight::cli
