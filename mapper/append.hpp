#pragma once

#include <vector>

namespace hindsight::mapper::detail {

/// Grows `v` (doubling) so that one more element fits; out of line and cold: see append().
template <class T>
[[gnu::noinline, gnu::cold]] void make_room_for_one(std::vector<T>& v) {
  v.reserve(v.empty() ? 16 : 2 * v.size());
}

/// v.push_back(x) for the mapper's per-entity and per-link arrays, which grow by the hundred per query (after a
/// reserve, so almost never reallocate): the reallocation stays out of line, so the hot callers need no spills of
/// saved registers for it and keep a short prologue.
template <class T>
[[gnu::always_inline]] inline void append(std::vector<T>& v, const T& x) {
  if (v.size() == v.capacity()) [[unlikely]] make_room_for_one(v);
  // Tells the compiler push_back's own reallocation path is dead here.
  if (v.size() == v.capacity()) __builtin_unreachable();
  v.push_back(x);
}

}  // namespace hindsight::mapper::detail
