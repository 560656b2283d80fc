#!/usr/bin/env bash
# The tidy test: the simulator under sim/ must be a pure function of scenario
# and seed (docs/architecture.md, "Determinism"). This fails, printing
# file:line, if any C++ file under sim/ reaches for real time, ambient
# randomness, the standard library's (non-portable) distributions, real
# sleeping, or an unordered container whose iteration order could reach the
# output.
#
#   tests/tidy_check.sh REPO_ROOT               check REPO_ROOT/sim
#   tests/tidy_check.sh REPO_ROOT --self-test   prove the checker fails on a
#                                               temporary copy with forbidden lines
#
# Text after `//` is not checked (prose may name what it forbids). A line that
# uses an unordered container for lookups only may say so with the comment
# `// tidy: unordered ok`. The command line (sim/cli/ only) may read a real
# clock for a progress bar's rate and ETA, on a line marked
# `// tidy: wall clock ok`; the same marker anywhere else is still reported,
# so the models stay pure.
set -euo pipefail

usage() {
  echo "usage: $0 REPO_ROOT [--self-test]" >&2
  exit 2
}

[[ $# -ge 1 && $# -le 2 ]] || usage
root=$1
mode=${2:-check}
[[ $mode == check || $mode == --self-test ]] || usage
[[ -d "$root/sim" ]] || {
  echo "tidy: no sim/ directory under '$root'" >&2
  exit 2
}

# Prints "file:line: reason: text" for every forbidden use under $1/sim and
# returns 1 if there was any. Paths are printed relative to $1.
check_tree() {
  local base=$1
  local files
  files=$(cd "$base" && find sim -type f \( -name '*.h' -o -name '*.hh' -o -name '*.hpp' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' \) | LC_ALL=C sort)
  [[ -n "$files" ]] || return 0
  # shellcheck disable=SC2086
  (cd "$base" && awk '
    function report(reason) {
      printf "%s:%d: %s: %s\n", FILENAME, FNR, reason, original
      bad = 1
    }
    {
      original = $0
      allow_unordered = index($0, "tidy: unordered ok") > 0
      allow_wall = index($0, "tidy: wall clock ok") > 0 && FILENAME ~ /^sim\/cli\//
      code = $0
      # The include check needs the whole directive; everything else ignores line comments.
      if (code ~ /^[ \t]*#[ \t]*include[ \t]*<random>/) report("#include <random> (use sim/core/rng.h)")
      cut = index(code, "//")
      if (cut > 0) code = substr(code, 1, cut - 1)
      w = "(^|[^A-Za-z0-9_])"   # left word boundary (mawk has no \b)
      if (code ~ (w "system_clock([^A-Za-z0-9_]|$)")) report("system_clock (true time belongs to the engine)")
      if (!allow_wall && code ~ (w "steady_clock([^A-Za-z0-9_]|$)")) report("steady_clock (true time belongs to the engine)")
      if (code ~ (w "(clock_gettime|gettimeofday)[ \t]*[(]")) report("clock_gettime/gettimeofday (true time belongs to the engine)")
      if (code ~ (w "high_resolution_clock([^A-Za-z0-9_]|$)")) report("high_resolution_clock (true time belongs to the engine)")
      if (code ~ (w "random_device([^A-Za-z0-9_]|$)")) report("random_device (use a derived Rng stream)")
      if (code ~ (w "s?rand[ \t]*[(]")) report("rand()/srand() (use a derived Rng stream)")
      if (code ~ /std[ \t]*::[ \t]*[A-Za-z0-9_]*_distribution/ ||
          code ~ (w "(uniform_int|uniform_real|normal|exponential|lognormal|bernoulli|binomial|geometric|negative_binomial|poisson|gamma|weibull|extreme_value|chi_squared|cauchy|fisher_f|student_t|discrete|piecewise_constant|piecewise_linear)_distribution([^A-Za-z0-9_]|$)"))
        report("standard distribution (not portable across standard libraries; use Rng)")
      if (code ~ (w "(mt19937(_64)?|minstd_rand0?|default_random_engine|ranlux(24|48)(_base)?|knuth_b)([^A-Za-z0-9_]|$)"))
        report("standard random engine (use a derived Rng stream)")
      if (code ~ (w "sleep_(for|until)([^A-Za-z0-9_]|$)")) report("sleep_for/sleep_until (simulated time only)")
      if (code ~ (w "time[ \t]*[(][ \t]*(nullptr|NULL)[ \t]*[)]")) report("time(nullptr) (true time belongs to the engine)")
      if (!allow_unordered && code ~ (w "unordered_(multi)?(map|set)[ \t]*<"))
        report("unordered container (iteration order may reach output; add `// tidy: unordered ok` if lookup-only)")
    }
    END { exit bad }
  ' $files)
}

if [[ $mode == check ]]; then
  if out=$(check_tree "$root"); then
    echo "tidy: OK ($(cd "$root" && find sim -type f \( -name '*.h' -o -name '*.cc' \) | wc -l) files under sim/)"
    exit 0
  fi
  echo "$out"
  echo "tidy: FAILED: forbidden constructs under sim/ (see docs/architecture.md, Determinism)" >&2
  exit 1
fi

# --self-test: copy sim/ to a temporary tree, add a file with one forbidden
# line per rule plus lines that must pass, and require the checker to fail on
# exactly the forbidden lines.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$root/sim" "$tmp/sim"
bad_file=sim/core/tidy_self_test_bad.cc
cat >"$tmp/$bad_file" <<'EOF'
#include <random>
auto a = std::chrono::system_clock::now();
auto b = std::chrono::steady_clock::now();
auto c = std::chrono::high_resolution_clock::now();
std::random_device d;
int e = rand();
void f() { srand(1); }
std::uniform_int_distribution<int> g(0, 9);
std::uniform_real_distribution<double> h;
std::normal_distribution<double> i;
std::exponential_distribution<double> j;
std::lognormal_distribution<double> k;
std::poisson_distribution<int> l;
uniform_int_distribution<int> m(0, 9);
void n() { std::this_thread::sleep_for(x); }
void o() { std::this_thread::sleep_until(x); }
auto p = time(nullptr);
auto q = std::time(NULL);
std::unordered_map<int, int> r;
std::unordered_set<int> s;
std::mt19937 t;
auto v = std::chrono::steady_clock::now();  // tidy: wall clock ok
void w() { timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); }
EOF
expected_bad=$(wc -l <"$tmp/$bad_file")
good_file=sim/core/tidy_self_test_good.cc
cat >"$tmp/$good_file" <<'EOF'
// Never use std::chrono::system_clock, rand() or std::uniform_int_distribution here.
std::unordered_map<int, int> lookup;  // tidy: unordered ok
int operand(int x);
int brand(int x) { return operand(x); }
Duration runtime(Duration d);
LocalTime wall_time(TrueTime t);
auto u = format_time(kTrueStart);
std::string steady_clock_note = "x";  // a longer identifier is not the clock
#include "sim/core/rng.h"
EOF
cli_file=sim/cli/tidy_self_test_cli.cc
cat >"$tmp/$cli_file" <<'EOF'
auto progress_start = std::chrono::steady_clock::now();  // tidy: wall clock ok
EOF
set +e
out=$(check_tree "$tmp")
status=$?
set -e
fail() {
  echo "tidy self-test FAILED: $1" >&2
  echo "--- checker output ---" >&2
  echo "$out" >&2
  exit 1
}
[[ $status -eq 1 ]] || fail "checker exited $status on a tree with forbidden lines (expected 1)"
for ((line = 1; line <= expected_bad; ++line)); do
  grep -q "^$bad_file:$line: " <<<"$out" || fail "forbidden line $line of $bad_file was not reported"
done
if grep -q "^$good_file:" <<<"$out"; then fail "an allowed line of $good_file was reported"; fi
if grep -q "^$cli_file:" <<<"$out"; then fail "the marked wall-clock line of $cli_file was reported"; fi
echo "tidy self-test: OK (the checker reported all $expected_bad forbidden lines and nothing allowed)"
