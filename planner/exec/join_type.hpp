#pragma once

namespace hindsight {

/// How a join treats rows without a match. "Probe" is the streamed side, "build" the materialised one.
enum class JoinType {
  Inner,
  ProbeOuter,     ///< plus unmatched probe rows, build columns NULL
  BuildOuter,     ///< plus unmatched build rows (emitted at the end), probe columns NULL
  FullOuter,      ///< both of the above
  Semi,           ///< probe rows with at least one match; probe columns only
  Anti,           ///< probe rows with no match; probe columns only
  NullAwareAnti,  ///< NOT IN: like Anti, but a NULL build key removes every row and, when the build side is not
                  ///< empty, a NULL probe key removes that row
};

/// "INNER", "PROBE_OUTER", ...
inline const char* join_type_name(JoinType t) {
  switch (t) {
    case JoinType::Inner: return "INNER";
    case JoinType::ProbeOuter: return "PROBE_OUTER";
    case JoinType::BuildOuter: return "BUILD_OUTER";
    case JoinType::FullOuter: return "FULL_OUTER";
    case JoinType::Semi: return "SEMI";
    case JoinType::Anti: return "ANTI";
    case JoinType::NullAwareAnti: return "NULL_AWARE_ANTI";
  }
  return "?";
}

/// Joins that output only the probe columns.
inline bool join_outputs_probe_only(JoinType t) {
  return t == JoinType::Semi || t == JoinType::Anti || t == JoinType::NullAwareAnti;
}

}  // namespace hindsight
