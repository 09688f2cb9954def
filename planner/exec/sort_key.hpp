#pragma once

namespace hindsight {

/// One ORDER BY key over an operator's input columns.
struct SortKey {
  int column = 0;
  bool ascending = true;
  bool nulls_first = false;
};

}  // namespace hindsight
