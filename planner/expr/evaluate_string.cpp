// String kernels: LIKE, ||, SUBSTRING, UPPER, LOWER, LENGTH. Strings are UTF-8; positions and lengths count
// characters (code points), as in PostgreSQL with a UTF8 database.
#include <memory>

#include "planner/expr/eval_internal.hpp"
#include "planner/expr/like_pattern.hpp"

namespace hindsight::eval {
namespace {

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Byte offset after skipping `chars` characters from byte `pos` (stops at the end).
size_t skip_chars(const std::string& s, size_t pos, int64_t chars) {
  while (chars > 0 && pos < s.size()) {
    ++pos;
    while (pos < s.size() && is_continuation(s[pos])) ++pos;
    --chars;
  }
  return pos;
}

Operand null_bool() {
  ColumnVector c(DataType::boolean());
  c.append_null();
  return Operand::constant(std::move(c));
}

// SUBSTRING(s FROM start [FOR len]): the characters at positions [start, start + len) that are >= 1.
std::string substring(const std::string& s, int64_t start, int64_t len, bool has_len) {
  if (has_len && len < 0) throw_data_error("negative substring length not allowed");
  int64_t end = INT64_MAX;  // exclusive, in characters
  if (has_len && __builtin_add_overflow(start, len, &end)) end = start < 0 ? INT64_MIN : INT64_MAX;
  const int64_t from = start < 1 ? 1 : start;
  if (end <= from) return {};
  size_t b = skip_chars(s, 0, from - 1);
  size_t e = end == INT64_MAX ? s.size() : skip_chars(s, b, end - from);
  return s.substr(b, e - b);
}

// ASCII and Latin-1 letters (U+00C0..U+00FE, encoded C3 80..C3 BE) change case; other characters are kept.
std::string change_case(const std::string& s, bool upper) {
  std::string out = s;
  for (size_t i = 0; i < out.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(out[i]);
    if (c < 0x80) {
      if (upper && c >= 'a' && c <= 'z') out[i] = static_cast<char>(c - 32);
      if (!upper && c >= 'A' && c <= 'Z') out[i] = static_cast<char>(c + 32);
    } else if (c == 0xC3 && i + 1 < out.size()) {
      unsigned char d = static_cast<unsigned char>(out[i + 1]);
      if (upper && d >= 0xA0 && d <= 0xBE && d != 0xB7) out[i + 1] = static_cast<char>(d - 0x20);
      if (!upper && d >= 0x80 && d <= 0x9E && d != 0x97) out[i + 1] = static_cast<char>(d + 0x20);
      ++i;
    }
  }
  return out;
}

int64_t char_length(const std::string& s) {
  int64_t n = 0;
  for (char c : s) n += !is_continuation(c);
  return n;
}

}  // namespace

Operand eval_like(const Expr& e, const Context& ctx) {
  Operand s = eval_node(*e.children.at(0), ctx);
  Operand p = eval_node(*e.children.at(1), ctx);
  if (s.is_null_constant() || p.is_null_constant()) return null_bool();
  const bool all_constant = s.is_constant() && p.is_constant();
  const size_t n = all_constant ? 1 : ctx.rows;
  ColumnVector out(DataType::boolean());
  out.ints.resize(n);
  if (s.has_nulls() || p.has_nulls()) {
    out.nulls.resize(n);
    for (size_t i = 0; i < n; ++i) out.nulls[i] = s.null_at(i) || p.null_at(i);
  }
  const std::string* strs = strs_of(s);
  const int64_t yes = e.negated ? 0 : 1;
  if (p.is_constant()) {
    const LikePattern pattern(strs_of(p)[0]);
    for (size_t i = 0; i < n; ++i) out.ints[i] = pattern.matches(strs[s.at(i)]) ? yes : 1 - yes;
  } else {
    // A pattern per row: recompile only when it changes.
    std::unique_ptr<LikePattern> pattern;
    const std::string* last = nullptr;
    for (size_t i = 0; i < n; ++i) {
      if (p.null_at(i) || s.null_at(i)) continue;
      const std::string& text = strs_of(p)[p.at(i)];
      if (!last || *last != text) {
        pattern = std::make_unique<LikePattern>(text);
        last = &text;
      }
      out.ints[i] = pattern->matches(strs[s.at(i)]) ? yes : 1 - yes;
    }
  }
  return all_constant ? Operand::constant(std::move(out)) : Operand::owned(std::move(out));
}

ColumnVector eval_string_call(const Expr& e, const std::vector<Operand>& args, size_t n) {
  ColumnVector out(e.type);
  out.nulls = union_nulls(args, n);
  auto is_null = [&](size_t i) { return !out.nulls.empty() && out.nulls[i]; };
  const Operand& a = args.at(0);
  switch (e.op) {
    case ScalarOp::Concat: {
      out.strs.resize(n);
      for (size_t i = 0; i < n; ++i) {
        if (is_null(i)) continue;
        std::string& r = out.strs[i];
        for (auto& arg : args) r += strs_of(arg)[arg.at(i)];
      }
      return out;
    }
    case ScalarOp::Substring: {
      out.strs.resize(n);
      const bool has_len = args.size() > 2;
      for (size_t i = 0; i < n; ++i) {
        if (is_null(i)) continue;
        int64_t start = ints_of(args.at(1))[args[1].at(i)];
        int64_t len = has_len ? ints_of(args[2])[args[2].at(i)] : 0;
        out.strs[i] = substring(strs_of(a)[a.at(i)], start, len, has_len);
      }
      return out;
    }
    case ScalarOp::Upper:
    case ScalarOp::Lower:
      out.strs.resize(n);
      for (size_t i = 0; i < n; ++i)
        if (!is_null(i)) out.strs[i] = change_case(strs_of(a)[a.at(i)], e.op == ScalarOp::Upper);
      return out;
    case ScalarOp::Length:
      out.ints.resize(n);
      for (size_t i = 0; i < n; ++i) out.ints[i] = is_null(i) ? 0 : char_length(strs_of(a)[a.at(i)]);
      return out;
    default:
      break;
  }
  throw_internal(__FILE__, __LINE__, std::string("not a string function: ") + scalar_op_name(e.op));
}

}  // namespace hindsight::eval
