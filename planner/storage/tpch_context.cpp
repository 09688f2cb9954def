#include "planner/storage/tpch_context.hpp"

#include <algorithm>
#include <cmath>

namespace hindsight::tpch {

namespace {

int64_t scaled(double sf, double base, int64_t minimum) {
  return std::max<int64_t>(minimum, static_cast<int64_t>(std::llround(sf * base)));
}

// Stream ids for derive_seed: one per kind of draw.
constexpr uint64_t kPartSuppStream = 0x5057;
constexpr uint64_t kSupplierNoteStream = 0x534e;

}  // namespace

Context::Context(const TpchOptions& opt)
    : options(opt),
      skewed(opt.skew > 0),
      suppliers(scaled(opt.sf, 10000, 4)),  // at least 4: every part has 4 distinct suppliers
      parts(scaled(opt.sf, 200000, 1)),
      customers(scaled(opt.sf, 150000, 1)),
      orders(scaled(opt.sf, 1500000, 1)),
      clerks(scaled(opt.sf, 1000, 1)),
      valid_customers(customers - customers / 3),
      text(opt.seed) {
  if (skewed) {
    customer_zipf_ = std::make_unique<ZipfSampler>(static_cast<uint64_t>(valid_customers), opt.skew);
    part_zipf_ = std::make_unique<ZipfSampler>(static_cast<uint64_t>(parts), opt.skew);
    supplier_zipf_ = std::make_unique<ZipfSampler>(static_cast<uint64_t>(suppliers), opt.skew);
    customer_scramble_ = std::make_unique<KeyScrambler>(static_cast<uint64_t>(valid_customers));
    part_scramble_ = std::make_unique<KeyScrambler>(static_cast<uint64_t>(parts));
    supplier_scramble_ = std::make_unique<KeyScrambler>(static_cast<uint64_t>(suppliers));
  }
  init_part_suppliers();
  init_supplier_notes();
}

int64_t Context::draw_customer(Rng& rng) const {
  if (!skewed) return valid_customer_key(rng.uniform(0, valid_customers - 1));
  return valid_customer_key(static_cast<int64_t>((*customer_scramble_)(customer_zipf_->rank(rng))));
}

int64_t Context::draw_part(Rng& rng) const {
  if (!skewed) return rng.uniform(1, parts);
  return static_cast<int64_t>((*part_scramble_)(part_zipf_->rank(rng))) + 1;
}

void Context::init_part_suppliers() {
  part_supp_.resize(static_cast<size_t>(parts) * 4);
  const int64_t s = suppliers;
  Rng rng(derive_seed(options.seed, kPartSuppStream, 0));
  for (int64_t p = 1; p <= parts; ++p) {
    int64_t* out = &part_supp_[static_cast<size_t>(p - 1) * 4];
    auto taken = [&](int i, int64_t key) { return std::find(out, out + i, key) != out + i; };
    for (int i = 0; i < 4; ++i) {
      int64_t key = 0;
      if (skewed) {
        // Zipf-skewed suppliers; a part's 4 suppliers must differ, so redraw duplicates (bounded).
        for (int attempt = 0; attempt < 64 && (key == 0 || taken(i, key)); ++attempt)
          key = static_cast<int64_t>((*supplier_scramble_)(supplier_zipf_->rank(rng))) + 1;
      }
      if (key == 0 || taken(i, key)) key = (p + i * (s / 4 + (p - 1) / s)) % s + 1;  // the spec's formula
      while (taken(i, key)) key = key % s + 1;
      out[i] = key;
    }
  }
}

void Context::init_supplier_notes() {
  supplier_note_.assign(static_cast<size_t>(suppliers), 0);
  int64_t each = std::min<int64_t>(scaled(options.sf, 5, 1), suppliers / 2);
  Rng rng(derive_seed(options.seed, kSupplierNoteStream, 0));
  for (uint8_t note = 1; note <= 2; ++note) {
    for (int64_t placed = 0; placed < each;) {
      auto idx = static_cast<size_t>(rng.uniform(0, suppliers - 1));
      if (supplier_note_[idx] != 0) continue;
      supplier_note_[idx] = note;
      ++placed;
    }
  }
}

}  // namespace hindsight::tpch
