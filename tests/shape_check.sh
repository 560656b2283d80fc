#!/usr/bin/env bash
# The shape test: files, functions and lines under sim/ stay small enough to
# read. It fails, printing what grew, when
#   - a file is longer than 500 lines,
#   - a function defined at the start of a line in a .cc file (from its
#     signature to its closing brace) is longer than 60 lines,
#   - a line is longer than 120 columns,
# unless tests/shape_ratchet.txt records that file, function or file's count
# of long lines at a size it has not grown past. The ratchet only turns one
# way: what it records may shrink (then lower the record, or drop it once
# under the limit — the check says which), never grow, and nothing new may
# be added over a limit.
#
#   tests/shape_check.sh REPO_ROOT               check REPO_ROOT/sim
#   tests/shape_check.sh REPO_ROOT --self-test   prove the checker fails on a
#                                               temporary copy that grows
#   tests/shape_check.sh REPO_ROOT --record      print the ratchet's entries for
#                                               the tree as it is (each size over a limit)
set -euo pipefail

usage() {
  echo "usage: $0 REPO_ROOT [--self-test | --record]" >&2
  exit 2
}

[[ $# -ge 1 && $# -le 2 ]] || usage
root=$1
mode=${2:-check}
[[ $mode == check || $mode == --self-test || $mode == --record ]] || usage
[[ -d "$root/sim" ]] || {
  echo "shape: no sim/ directory under '$root'" >&2
  exit 2
}

readonly kFileLines=500 kFunctionLines=60 kColumns=120

# Prints one measurement per line: "file PATH LINES", "function PATH NAME
# LINES" (over the limit only) and "long-lines PATH COUNT" (when any).
measure() {
  local base=$1
  local files
  files=$(cd "$base" && find sim -type f \( -name '*.h' -o -name '*.cc' \) | LC_ALL=C sort)
  # shellcheck disable=SC2086
  (cd "$base" && awk -v function_limit="$kFunctionLines" -v columns="$kColumns" '
    function flush() {
      if (current == "") return
      printf "file %s %d\n", current, lines
      if (long > 0) printf "long-lines %s %d\n", current, long
    }
    FNR == 1 { flush(); current = FILENAME; lines = 0; long = 0; start = 0 }
    {
      ++lines
      if (length($0) > columns) ++long
      # A definition starts at column 0 and ends its line with "{"; the
      # first "}" at column 0 closes it (namespaces do not indent).
      if (FILENAME ~ /\.cc$/ && start == 0 && $0 ~ /^[A-Za-z].*[)][^;]*[{]$/ &&
          $0 !~ /^(namespace|struct|class|enum|union|extern)[ {]/) {
        start = FNR
        name = $0
        sub(/[(].*/, "", name)
        n = split(name, words, /[ *&]+/)
        name = words[n]
      } else if (start > 0 && $0 ~ /^}/) {
        if (FNR - start + 1 > function_limit) printf "function %s %s %d\n", FILENAME, name, FNR - start + 1
        start = 0
      }
    }
    END { flush() }
  ' $files)
}

# Compares the measurements of $1 with the ratchet file $2; prints each
# breach and returns 1 if there was any.
judge() {
  local base=$1 ratchet=$2
  measure "$base" | awk -v file_limit="$kFileLines" -v ratchet="$ratchet" '
    BEGIN {
      while ((getline line < ratchet) > 0) {
        if (line ~ /^[ \t]*(#|$)/) continue
        n = split(line, f, /[ \t]+/)
        key = f[1] " " f[2] (f[1] == "function" ? " " f[3] : "")
        recorded[key] = f[n]
      }
    }
    {
      key = $1 " " $2 ($1 == "function" ? " " $3 : "")
      size = $NF
      if ($1 == "file" && size <= file_limit) next
      seen[key] = 1
      if (!(key in recorded)) {
        what = $1 == "file" ? "lines (limit " file_limit ")" : $1 == "function" ? "lines (limit 60)" : "lines longer than 120 columns"
        printf "%s: %s %s\n", $2, ($1 == "function" ? $3 " has " : "has ") size, what
        bad = 1
      } else if (size > recorded[key]) {
        printf "%s: %s grew from %d to %d (shape_ratchet.txt)\n", $2, ($1 == "function" ? $3 : $1), recorded[key], size
        bad = 1
      } else if (size < recorded[key]) {
        printf "shape: note: %s shrank to %d; lower its record in tests/shape_ratchet.txt\n", key, size > "/dev/stderr"
      }
    }
    END {
      for (key in recorded) if (!(key in seen))
        printf "shape: note: %s is within its limit now; drop it from tests/shape_ratchet.txt\n", key > "/dev/stderr"
      exit bad
    }
  '
}

ratchet_file=$root/tests/shape_ratchet.txt
if [[ $mode == --record ]]; then
  measure "$root" | awk -v file_limit="$kFileLines" '$1 != "file" || $NF > file_limit'
  exit 0
fi
if [[ $mode == check ]]; then
  if out=$(judge "$root" "$ratchet_file"); then
    echo "shape: OK ($(cd "$root" && find sim -type f \( -name '*.h' -o -name '*.cc' \) | wc -l) files under sim/; limits: files $kFileLines lines, functions $kFunctionLines, lines $kColumns columns)"
    exit 0
  fi
  echo "$out"
  echo "shape: FAILED: split what grew (see docs/contributing.md, Style)" >&2
  exit 1
fi

# --self-test: on a temporary copy, a new long function, a new long line, a
# recorded file grown by one line and a new file over the limit must each be
# reported, and the untouched tree must pass.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests"
cp -R "$root/sim" "$tmp/sim"
cp "$ratchet_file" "$tmp/tests/shape_ratchet.txt"
fail() {
  echo "shape self-test FAILED: $1" >&2
  echo "--- checker output ---" >&2
  echo "${out:-}" >&2
  exit 1
}
out=$(judge "$tmp" "$tmp/tests/shape_ratchet.txt" 2>/dev/null) || fail "the unchanged tree does not pass"
{
  echo "int long_one(int x) {"
  for ((i = 0; i < kFunctionLines; ++i)); do echo "  x += $i;"; done
  echo "  return x;"
  echo "}"
  printf 'int wide = 0;  // %0130d\n' 0
} >"$tmp/sim/core/shape_self_test.cc"
for ((i = 0; i <= kFileLines; ++i)); do echo "// line $i"; done >"$tmp/sim/core/shape_self_test_big.h"
grown=$(awk '$1 == "file" { print $2; exit }' "$ratchet_file")
[[ -n "$grown" ]] && echo "// one more line" >>"$tmp/$grown"
set +e
out=$(judge "$tmp" "$tmp/tests/shape_ratchet.txt" 2>/dev/null)
status=$?
set -e
[[ $status -eq 1 ]] || fail "checker exited $status on a tree that grew (expected 1)"
grep -q "^sim/core/shape_self_test.cc: long_one has" <<<"$out" || fail "the new long function was not reported"
grep -q "^sim/core/shape_self_test.cc: has 1 lines longer" <<<"$out" || fail "the new long line was not reported"
grep -q "^sim/core/shape_self_test_big.h: has $((kFileLines + 1)) lines" <<<"$out" || fail "the new long file was not reported"
[[ -z "$grown" ]] || grep -q "^$grown: file grew" <<<"$out" || fail "the grown file $grown was not reported"
echo "shape self-test: OK (a new long function, line and file and a grown file were each reported)"
