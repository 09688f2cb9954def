#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mapper/plan_mapper.hpp"
#include "planner/session/query_pipeline.hpp"
#include "planner/signing/plan_signer.hpp"

namespace hindsight {

/// Node id -> mapper entity, stored densely by id (node ids are small and dense within a query):
/// the std::map lookups (count, at, find/end, ascending iteration over {id, entity} pairs)
/// without a tree node per entry.
class NodeEntityMap {
 public:
  using value_type = std::pair<NodeId, mapper::EntityId>;

  class const_iterator {
   public:
    const value_type& operator*() const { return *p_; }
    const value_type* operator->() const { return p_; }
    const_iterator& operator++() {
      ++p_;
      skip();
      return *this;
    }
    bool operator==(const const_iterator& o) const { return p_ == o.p_; }

   private:
    friend class NodeEntityMap;
    const_iterator(const value_type* p, const value_type* end) : p_(p), end_(end) { skip(); }
    void skip() {
      while (p_ != end_ && p_->second == kAbsent) ++p_;
    }
    const value_type* p_;
    const value_type* end_;
  };

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t count(NodeId id) const { return id < slots_.size() && slots_[id].second != kAbsent; }
  const_iterator find(NodeId id) const { return count(id) ? const_iterator(&slots_[id], data_end()) : end(); }
  mapper::EntityId at(NodeId id) const {
    if (!count(id)) throw std::out_of_range("NodeEntityMap::at: node not mapped");
    return slots_[id].second;
  }
  const_iterator begin() const { return const_iterator(slots_.data(), data_end()); }
  const_iterator end() const { return const_iterator(data_end(), data_end()); }

  /// Maps `id` to `entity` (replacing any previous entity).
  void insert_or_assign(NodeId id, mapper::EntityId entity) {
    if (id >= slots_.size()) grow(id);
    size_ += slots_[id].second == kAbsent;
    slots_[id] = {id, entity};
  }
  /// Pre-allocates room for node ids below `n`.
  void reserve(size_t n) { slots_.reserve(n); }
  /// Removes every entry, keeping the memory.
  void clear() {
    slots_.clear();
    size_ = 0;
  }

 private:
  static constexpr mapper::EntityId kAbsent = UINT32_MAX;
  const value_type* data_end() const { return slots_.data() + slots_.size(); }
  /// Adds absent slots up to `id`, and at once up to the reserved capacity.
  void grow(NodeId id);
  std::vector<value_type> slots_;  // slots_[id] = {id, entity}, or {any, kAbsent}
  size_t size_ = 0;
};

/// The equivalence groups of one compiled query: AST nodes, logical operators (and those rewrites
/// replaced), physical operators, executable operators and signatures, linked stage by stage
/// (bind, rewrite:<rule>, physical, exec, signature). With a run, the rows each operator
/// produced are attached as stats records (cut-short operators as lower bounds).
struct QueryMapping {
  mapper::PlanMapper mapper;
  NodeEntityMap logical, physical;
  std::map<int, mapper::EntityId> exec;  // exec operator id -> entity (with a run)

  QueryMapping() = default;
  QueryMapping(const QueryMapping&) = delete;
  QueryMapping& operator=(const QueryMapping&) = delete;

  std::optional<mapper::GroupId> group_of_logical(NodeId id) const;
  std::optional<mapper::GroupId> group_of_physical(NodeId id) const;

  /// The deleter of map_query's mappings: hands the mapping, with its arrays' memory, to the next
  /// map_query on this thread (a query's mapping is rebuilt for every EXPLAIN and every run: its
  /// arrays are reused, not allocated again), or deletes it.
  struct Recycle {
    void operator()(QueryMapping* m) const;
  };
};
using QueryMappingPtr = std::unique_ptr<QueryMapping, QueryMapping::Recycle>;

/// Builds the mapping. Throws INTERNAL for a refused link when settings.mapper_strict is set;
/// otherwise refused links are recorded and the query goes on.
/// `detailed_labels` adds each operator's parameters to its label (for people: groups, EXPLAIN);
/// without it labels are "Kind #id" and the mapping stays cheap on the planning path.
QueryMappingPtr map_query(const CompiledQuery& cq, const ExecutedQuery* run, const Settings& settings,
                          bool detailed_labels = true);

}  // namespace hindsight
