#include "stats_store/memory_stats_source.hpp"

#include <fmt/format.h>

namespace hindsight::stats {

std::optional<ObservedRows> MemoryStatsSource::find(KeyKind kind, const sig::Signature& key) const {
  const auto& m = answers_[static_cast<size_t>(kind)];
  auto it = m.find(key);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

MemoryStatsSource::Builder::Builder(std::vector<TableVersion> tables, double max_drift)
    : tables_(std::move(tables)), max_drift_(max_drift), source_(std::make_shared<MemoryStatsSource>()) {}

void MemoryStatsSource::Builder::add(const SignatureAggregate& a) {
  if (a.observations == 0) return;
  if (a.signature_version != sig::SIGNATURE_VERSION) {
    ignored_by_version_[a.signature_version] += a.observations;
    return;
  }
  if (static_cast<size_t>(a.kind) > 2) return;
  if (!usable_now(a.inputs, tables_, max_drift_)) return;
  source_->answers_[static_cast<size_t>(a.kind)][a.signature] = a.answer();
}

std::shared_ptr<const MemoryStatsSource> MemoryStatsSource::Builder::finish(std::vector<std::string>& warnings) {
  if (!ignored_by_version_.empty()) {
    // One warning per snapshot, however many signatures and versions it skipped.
    uint64_t total = 0;
    std::string versions;
    for (const auto& [version, n] : ignored_by_version_) {
      total += n;
      versions += fmt::format("{}{}", versions.empty() ? "" : ", ", version);
    }
    warnings.push_back(fmt::format("{} observations of signature version {} ignored (this build uses version {}; "
                                   "`hindsight stats gc` removes them)",
                                   total, versions, sig::SIGNATURE_VERSION));
  }
  ignored_by_version_.clear();
  auto out = std::move(source_);
  source_ = std::make_shared<MemoryStatsSource>();
  return out;
}

}  // namespace hindsight::stats
