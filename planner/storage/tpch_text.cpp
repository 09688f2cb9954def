#include "planner/storage/tpch_text.hpp"

#include <algorithm>
#include <array>

namespace hindsight::tpch {

namespace {

constexpr size_t kPoolBytes = size_t{2} << 20;  // small enough to stay in cache
constexpr size_t kMaxSlice = 256;

// Our own small business vocabulary; "special" and "requests" are in it so that Q13's pattern also matches
// some comments by chance.
constexpr std::array<std::string_view, 32> kNouns = {
    "accounts", "deposits",   "requests", "packages",  "shipments",  "invoices", "pallets",   "crates",
    "orders",   "payments",   "ledgers",  "receipts",  "warehouses", "carriers", "routes",    "bundles",
    "parcels",  "containers", "batches",  "manifests", "dealers",    "vendors",  "contracts", "returns",
    "refunds",  "credits",    "balances", "tickets",   "notes",      "quotes",   "forecasts", "samples"};
constexpr std::array<std::string_view, 28> kAdjectives = {
    "special", "pending", "express", "regular", "final",   "quick",   "careful", "bold",   "silent", "ironic",
    "even",    "unusual", "steady",  "ready",   "quiet",   "urgent",  "routine", "prompt", "late",   "early",
    "minor",   "major",   "open",    "closed",  "partial", "overdue", "weekly",  "annual"};
constexpr std::array<std::string_view, 30> kVerbs = {
    "ship",  "arrive",  "wait",    "settle", "move",   "cross", "follow", "linger", "check", "review",
    "track", "confirm", "deliver", "load",   "unload", "sort",  "stack",  "hold",   "route", "clear",
    "bill",  "audit",   "count",   "pack",   "seal",   "label", "scan",   "weigh",  "store", "release"};
constexpr std::array<std::string_view, 18> kAdverbs = {
    "quickly",  "carefully", "slowly", "quietly", "boldly",  "furiously", "evenly",  "finally", "promptly",
    "steadily", "rarely",    "often",  "always",  "closely", "gently",    "briskly", "daily",   "soon"};
constexpr std::array<std::string_view, 20> kPrepositions = {
    "about",  "above",  "across", "after",  "against", "along", "among", "around",  "before", "behind",
    "beside", "beyond", "during", "inside", "near",    "over",  "past",  "through", "toward", "under"};
constexpr std::array<std::string_view, 4> kTerminators = {".", ";", ":", "!"};

template <typename A>
std::string_view pick(Rng& rng, const A& words) {
  return words[static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(words.size()) - 1))];
}

// Sentence shapes, one letter per word: A adjective, N noun, V verb, D adverb, P preposition, T "the".
constexpr std::array<std::string_view, 4> kShapes = {"ANVD", "NVPTAN", "DANVPN", "AANDV"};

/// One sentence, e.g. "pending shipments settle quickly." or "routes follow across the closed pallets!"
void sentence(Rng& rng, std::string& out) {
  for (char part : pick(rng, kShapes)) {
    if (!out.empty() && out.back() != ' ') out += ' ';
    switch (part) {
      case 'A':
        out += pick(rng, kAdjectives);
        break;
      case 'N':
        out += pick(rng, kNouns);
        break;
      case 'V':
        out += pick(rng, kVerbs);
        break;
      case 'D':
        out += pick(rng, kAdverbs);
        break;
      case 'P':
        out += pick(rng, kPrepositions);
        break;
      default:
        out += "the";
        break;
    }
  }
  out += pick(rng, kTerminators);
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

TextPool::TextPool(uint64_t seed) {
  Rng rng(derive_seed(seed, 0x7e47, 0));
  text_.reserve(kPoolBytes + 128);
  while (text_.size() < kPoolBytes) {
    sentence(rng, text_);
    text_ += ' ';
  }
}

std::string_view TextPool::snippet(Rng& rng, int len) const {
  if (len <= 0) return {};
  // A random offset moved forward to the next word start (words are short, the pool ends well after).
  auto start = static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(text_.size() - 2 * kMaxSlice)));
  while (text_[start] != ' ') ++start;
  ++start;
  return trim_right(std::string_view(text_).substr(start, static_cast<size_t>(std::min<int>(len, kMaxSlice))));
}

std::string_view TextPool::comment(Rng& rng, int min_len, int max_len) const {
  int len = static_cast<int>(rng.uniform(min_len, max_len));
  // A slice ending on a blank loses it; draw another start so the length stays within [min_len, max_len].
  std::string_view s = snippet(rng, len);
  while (static_cast<int>(s.size()) < min_len) s = snippet(rng, len);
  return s;
}

std::string TextPool::comment_with(Rng& rng, int min_len, int max_len, std::string_view first,
                                   std::string_view second) const {
  int len = static_cast<int>(rng.uniform(min_len, max_len));
  int budget = std::max(0, len - static_cast<int>(first.size() + second.size()) - 4);
  int a = static_cast<int>(rng.uniform(0, budget));
  int b = static_cast<int>(rng.uniform(0, budget - a));
  std::string out;
  auto add = [&](std::string_view s) {
    if (s.empty()) return;
    if (!out.empty()) out += ' ';
    out += s;
  };
  add(snippet(rng, a));
  add(first);
  add(snippet(rng, b));
  add(second);
  add(snippet(rng, budget - a - b));
  while (static_cast<int>(out.size()) < min_len) {
    std::string_view more = snippet(rng, max_len - static_cast<int>(out.size()) - 1);
    if (more.empty()) break;
    add(more);
  }
  return out;
}

void random_vstring(Rng& rng, int min_len, int max_len, std::string& out) {
  static constexpr std::string_view kChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  int len = static_cast<int>(rng.uniform(min_len, max_len));
  out.clear();
  for (int i = 0; i < len; ++i) {
    bool blank = i > 0 && i + 1 < len && out.back() != ' ' && rng.uniform(0, 7) == 0;
    out += blank ? ' ' : kChars[static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(kChars.size()) - 1))];
  }
}

}  // namespace hindsight::tpch
