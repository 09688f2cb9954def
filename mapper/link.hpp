#pragma once

#include <stdexcept>
#include <string>

#include "mapper/entity.hpp"

namespace hindsight::mapper {

/// An accepted link with its provenance (the stage that established the equivalence).
struct Link {
  EntityId a;
  EntityId b;
  std::string stage;  ///< "bind", "rewrite:push_down_filters", "physical", "exec", "signature", "stats", ...
};

/// A link that was not unioned because its two groups have different known output schemas.
struct RefusedLink {
  EntityId a;
  EntityId b;
  std::string stage;
  std::string reason;  ///< names both schemas
};

/// What `PlanMapper::link` did (a refusal is an expected outcome: returned, and recorded in refused_links()).
enum class LinkOutcome { Merged, AlreadyGrouped, Refused };

/// Thrown by a refused link in strict mode (tests); what() is the refusal reason.
class MapperConflict : public std::runtime_error {
 public:
  explicit MapperConflict(RefusedLink refused) : std::runtime_error(refused.reason), refused_(std::move(refused)) {}

  /// The refusal that caused the exception.
  const RefusedLink& refused() const { return refused_; }

 private:
  RefusedLink refused_;
};

}  // namespace hindsight::mapper
