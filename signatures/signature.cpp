#include "signatures/signature.hpp"

namespace hindsight::sig {
namespace {

constexpr char HEX_DIGITS[] = "0123456789abcdef";

void append_hex64(std::string& out, uint64_t v) {
  for (int shift = 60; shift >= 0; shift -= 4) out.push_back(HEX_DIGITS[(v >> shift) & 0xF]);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<uint64_t> parse_hex64(std::string_view text) {
  uint64_t v = 0;
  for (char c : text) {
    int d = hex_value(c);
    if (d < 0) return std::nullopt;
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  return v;
}

}  // namespace

std::string Signature::hex() const {
  std::string out;
  out.reserve(32);
  append_hex64(out, hi);
  append_hex64(out, lo);
  return out;
}

std::string Signature::short_hex() const { return hex().substr(0, 8); }

std::optional<Signature> Signature::from_hex(std::string_view text) {
  if (text.size() != 32) return std::nullopt;
  auto hi = parse_hex64(text.substr(0, 16));
  auto lo = parse_hex64(text.substr(16));
  if (!hi || !lo) return std::nullopt;
  return Signature{*hi, *lo};
}

}  // namespace hindsight::sig
