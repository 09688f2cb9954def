#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace hindsight::tpch {

/// Value domains of the TPC-H specification (clause 4.2.2 and 4.2.3).
struct NationInfo {
  std::string_view name;
  int64_t region;
};
extern const std::array<NationInfo, 25> kNations;
extern const std::array<std::string_view, 5> kRegions;
extern const std::array<std::string_view, 5> kSegments;
extern const std::array<std::string_view, 5> kPriorities;
extern const std::array<std::string_view, 7> kShipModes;
extern const std::array<std::string_view, 4> kShipInstructs;
extern const std::array<std::string_view, 6> kTypeSyllable1;
extern const std::array<std::string_view, 5> kTypeSyllable2;
extern const std::array<std::string_view, 5> kTypeSyllable3;
extern const std::array<std::string_view, 5> kContainerSyllable1;
extern const std::array<std::string_view, 8> kContainerSyllable2;
extern const std::array<std::string_view, 92> kColors;

}  // namespace hindsight::tpch
