#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "planner/exec/memory_tracker.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// The rows of a materialized CTE: written once by the producing fragment's instances, then read
/// (not consumed) by every reference. Charged to the query's memory budget while it lives.
class CteBuffer {
 public:
  CteBuffer(std::vector<DataType> types, MemoryTracker* memory) : types_(std::move(types)), memory_(memory) {}
  ~CteBuffer() {
    if (memory_) memory_->release(bytes_);
  }
  CteBuffer(const CteBuffer&) = delete;
  CteBuffer& operator=(const CteBuffer&) = delete;

  const std::vector<DataType>& types() const { return types_; }
  /// Appends a batch; throws MEMORY_LIMIT_EXCEEDED in the name of `label`.
  void append(Batch batch, const std::string& label) {
    int64_t b = static_cast<int64_t>(batch.byte_size());
    if (memory_) memory_->charge(b, label);
    std::lock_guard<std::mutex> lock(mu_);
    bytes_ += b;
    batches_.push_back(std::make_shared<const Batch>(std::move(batch)));
  }
  /// Batches i with i % readers == reader (all of them for a single reader). Call after writing ended.
  std::vector<std::shared_ptr<const Batch>> share(int reader, int readers) const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::shared_ptr<const Batch>> out;
    for (size_t i = 0; i < batches_.size(); ++i)
      if (readers <= 1 || static_cast<int>(i % static_cast<size_t>(readers)) == reader) out.push_back(batches_[i]);
    return out;
  }

 private:
  std::vector<DataType> types_;
  MemoryTracker* memory_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<const Batch>> batches_;
  int64_t bytes_ = 0;
};

}  // namespace hindsight
