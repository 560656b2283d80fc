#!/bin/sh
# Draws the pictures in docs/img/ again. Each one is the timeline of a real
# catalogue run that breaks the property it illustrates (docs/properties.md),
# made by locksim and analysis/timeline.py, so a change that moves a run is a
# change of its picture: run this, look, and commit the new PNGs with it. The
# last is a recorded history's (docs/history.md): a real etcd run's, judged
# by locksim check.
#
#   sh docs/make_figures.sh
#
# LOCKSIM_BIN names the simulator (default build/locksim), PYTHON the
# interpreter with matplotlib (default /usr/bin/python3). It stops, naming
# the run, if a run no longer matches its scenario's [expect] or no longer
# breaks the property its picture is for.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
locksim=${LOCKSIM_BIN:-build/locksim}
python=${PYTHON:-/usr/bin/python3}
export MPLBACKEND=Agg
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p docs/img

# figure NAME PROPERTY SCENARIO VARIANT [analysis/timeline.py options...]
figure() {
  name=$1 property=$2 scenario=$3 variant=$4
  shift 4
  trace="$work/$name.jsonl"
  if ! "$locksim" run "scenarios/$scenario.toml" --variant "$variant" --trace "$trace" > "$work/$name.txt"; then
    cat "$work/$name.txt" >&2
    echo "make_figures: $scenario · $variant no longer matches its [expect]" >&2
    exit 1
  fi
  # The trace's verdict lines (sim/world/trace_format.h) say what the checkers judged.
  if ! grep -q "\"type\":\"verdict\",\"property\":\"$property\",\"id\":\"P[1-5]\",\"status\":\"violated\"" "$trace"; then
    echo "make_figures: $scenario · $variant no longer breaks $property; pick another run for $name" >&2
    exit 1
  fi
  "$python" analysis/timeline.py "$trace" --out "$work/$name.png" --title "$property: $scenario · $variant" "$@"
  small "$name"
  echo "docs/img/$name.png  ($scenario · $variant)"
}

# Timelines are flat colours and text: a palette of 128 colours looks the
# same and takes a third of the bytes, which keeps the repository small.
small() {
  "$python" -c '
import sys
from PIL import Image
Image.open(sys.argv[1]).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT,
    dither=Image.Dither.NONE).save(sys.argv[2], optimize=True)' "$work/$1.png" "docs/img/$1.png"
}

# history_figure NAME HISTORY: a recorded history, judged by locksim check
# (exit 1: it breaks a property, as the picture's history must).
history_figure() {
  name=$1 history=$2
  set +e
  "$locksim" check "$history" --trace "$work/$name.jsonl" > "$work/$name.txt"
  status=$?
  set -e
  if [ "$status" -ne 1 ]; then
    cat "$work/$name.txt" >&2
    echo "make_figures: $history breaks no property (exit $status); pick another history for $name" >&2
    exit 1
  fi
  "$python" analysis/timeline.py "$work/$name.jsonl" --out "$work/$name.png" --title "a real etcd run, judged by locksim check"
  small "$name"
  echo "docs/img/$name.png  ($history)"
}

# Each window ends soon after the story's last act: the runs go on idle to
# their run_for (40 s and more), which would only squeeze the picture.
figure p1-grant-exclusive grant-exclusive del-without-owner-check base --to 16
figure p2-belief-exclusive belief-exclusive watchdog-renewal-gc long-pause --to 64
figure p3-resource-exclusive resource-exclusive single-node-gc-pause base --to 17
figure p4-resource-current resource-current fencing-newer-holder-not-yet-written base --to 21
figure p5-invariant invariant fencing-multistep-collection base --to 17
history_figure history-real-etcd-gc-pause docs/examples/real-etcd-gc-pause.history.jsonl
