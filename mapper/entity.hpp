#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hindsight::mapper {

/// What a mapped entity is. The mapper never looks inside an entity; the kind only labels it.
enum class EntityKind : uint8_t { Ast, Logical, Physical, Exec, Signature, Stats };

/// Dense entity id: the n-th registered entity has id n - 1.
using EntityId = uint32_t;

/// Dense group id for the current partition: groups are numbered 0..k-1 by their smallest member id.
using GroupId = uint32_t;

/// Every kind, in declaration order.
inline constexpr EntityKind kAllEntityKinds[] = {EntityKind::Ast,       EntityKind::Logical, EntityKind::Physical,
                                                 EntityKind::Exec,      EntityKind::Signature, EntityKind::Stats};

/// "ast", "logical", "physical", "exec", "signature", "stats" (the `groups --format json` spelling).
std::string_view to_string(EntityKind kind);

/// Inverse of to_string; nullopt for an unknown name.
std::optional<EntityKind> entity_kind_from_string(std::string_view name);

/// Read-only view of one registered entity; valid until the next mutation of its PlanMapper.
struct EntityView {
  EntityId id;
  EntityKind kind;
  std::string_view label;                 ///< human text, e.g. "HashJoin #12 [orders⋈customer]"
  const std::vector<std::string>& schema; ///< output column type names; empty = unknown
  std::string_view signature_key;         ///< interning key (32 hex) for Signature entities, else empty
};

}  // namespace hindsight::mapper
