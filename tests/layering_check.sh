#!/usr/bin/env bash
# The layering test: every file under sim/ includes only its own module and
# the modules it builds on, as sim/LAYERS declares (the build enforces the
# same for every .cc it compiles; this also covers headers that no .cc of
# their own module includes). Prints "file:line: module may not include
# other-module" for each wrong-way include and fails.
#
#   tests/layering_check.sh REPO_ROOT               check REPO_ROOT/sim
#   tests/layering_check.sh REPO_ROOT --self-test   prove it fails on a planted wrong-way include
set -euo pipefail

[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 REPO_ROOT [--self-test]" >&2; exit 2; }
root=$1
mode=${2:-check}

# Run from the tree's root: checks sim/ against sim/LAYERS.
check_tree() {
  awk '
    FNR == NR {  # sim/LAYERS: module: deps
      if ($0 ~ /^[a-z]+:/) {
        split($0, parts, ":"); m = parts[1]; visible[m, m] = 1; order[++n] = m
        k = split(parts[2], deps, /[ \t]+/)
        for (i = 1; i <= k; i++) if (deps[i] != "") {
          for (j = 1; j <= n; j++) if (visible[deps[i], order[j]]) visible[m, order[j]] = 1
        }
        declared[m] = 1
      }
      next
    }
    {
      split(FILENAME, path, "/"); module = path[2]
      if (!(module in declared)) { printf "%s: module %s is not declared in sim/LAYERS\n", FILENAME, module; bad = 1; nextfile }
      if (match($0, /^[ \t]*#[ \t]*include[ \t]*"sim\/[a-z_]+\//)) {
        inc = substr($0, RSTART, RLENGTH); sub(/.*"sim\//, "", inc); sub(/\/$/, "", inc)
        if (!visible[module, inc]) { printf "%s:%d: %s may not include %s (sim/LAYERS)\n", FILENAME, FNR, module, inc; bad = 1 }
      }
    }
    END { exit bad }
  ' sim/LAYERS $(find sim -mindepth 2 -type f \( -name "*.h" -o -name "*.cc" \) | LC_ALL=C sort)
}

if [[ $mode == check ]]; then
  cd "$root"
  if out=$(check_tree); then
    echo "layering: OK ($(find sim -mindepth 2 -type f \( -name '*.h' -o -name '*.cc' \) | wc -l) files under sim/)"
    exit 0
  fi
  echo "$out" >&2
  exit 1
fi

# Self-test: a copy of sim/ with a world file that includes a model, and a
# checker that includes the world, must fail on exactly those two lines.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$root/sim" "$tmp/sim"
printf '#include "sim/redis/redis_node.h"\n' > "$tmp/sim/world/planted.h"
printf '#include "sim/world/world.h"\n' > "$tmp/sim/check/planted.h"
cd "$tmp"
if out=$(check_tree); then
  echo "layering self-test: the planted wrong-way includes were not reported" >&2
  exit 1
fi
expected=$'sim/check/planted.h:1: check may not include world (sim/LAYERS)\nsim/world/planted.h:1: world may not include redis (sim/LAYERS)'
if [[ "$out" != "$expected" ]]; then
  printf 'layering self-test: expected\n%s\ngot\n%s\n' "$expected" "$out" >&2
  exit 1
fi
echo "layering self-test: OK (both planted includes reported, nothing else)"
