#!/usr/bin/env bash
# DESIGN.md section 2: lower layers include nothing of the layers above them.
set -u
cd "$(dirname "$0")/.."
fail=0
check() { # folder, forbidden include pattern, rule
  [ -d "$1" ] || return 0
  hits=$(grep -rnE "#include *[\"<]($2)" "$1" 2>/dev/null)
  if [ -n "$hits" ]; then echo "layering: $3"; echo "$hits"; fail=1; fi
}
check signatures  'planner/|mapper/|stats_store/|reexec/|cli/' "signatures/ includes nothing of the other folders"
check mapper      'planner/|signatures/|stats_store/|reexec/|cli/' "mapper/ includes nothing of the other folders"
check stats_store 'planner/|reexec/|cli/|mapper/' "stats_store/ knows signatures, never plan nodes"
check planner     'reexec/|cli/|stats_store/sqlite' "planner/ sees only the StatsSource interface"
check reexec      'cli/' "reexec/ must not include the CLI"
[ $fail = 0 ] && echo "layering: ok"
exit $fail
