#include "mapper/entity.hpp"

namespace hindsight::mapper {

std::string_view to_string(EntityKind kind) {
  switch (kind) {
    case EntityKind::Ast: return "ast";
    case EntityKind::Logical: return "logical";
    case EntityKind::Physical: return "physical";
    case EntityKind::Exec: return "exec";
    case EntityKind::Signature: return "signature";
    case EntityKind::Stats: return "stats";
  }
  return "unknown";
}

std::optional<EntityKind> entity_kind_from_string(std::string_view name) {
  for (EntityKind kind : kAllEntityKinds) {
    if (to_string(kind) == name) return kind;
  }
  return std::nullopt;
}

}  // namespace hindsight::mapper
