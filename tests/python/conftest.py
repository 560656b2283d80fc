"""Shared fixtures for the analysis tests: the hand-made traces, verdict files, and a CLI runner.

The traces in data/ are written by hand in the simulator's exact line format
(sim/world/trace_format.cc):
- single_node_gc_pause.jsonl — Kleppmann's GC pause (SCENARIOS.md #1): one
  node r1, TTL 10 s; c1 is granted at 1 ms, reads, pauses 15 s; r1's key
  expires at 10.0005 s; c2, after two failed tries, is granted at 11.001 s,
  reads, writes and releases; c1 wakes at 15.002 s and writes anyway.
- redlock_clock_jump.jsonl — SCENARIOS.md #6: five nodes A–E, quorum 3; c1
  holds A, B, C; C's wall clock jumps +15 s at 1 s and its key expires; c2
  gets C, D, E at 2.001 s; c1 writes at 1.5 s and 4 s, c2 at 3 s.
- every_line_type.jsonl — not a catalogue story: a small run that uses every
  line type and fault verb once (lost, held and crash-dropped messages,
  overlapping pauses, crashes with and without restart, fencing rejections,
  a clock slew, a lease extension and promise lines from grant and extend).
- redlock_extend_slew.jsonl — Redlock on five nodes r1..r5, quorum 3: c1
  holds r1, r2, r3 (r4, r5 cut off from it) from 1 ms, promised until
  9.898 s, and extends at 5.001 s to 14.898 s; r3's clock slews +50 % from 6 s
  to 8 s, so c1's key on r3 expires at 14.001 s; c2 (cut off from r1, r2)
  fails 11 times, 100 ms apart from 13 s (r4, r5 take its value, it deletes
  them again), and is granted r3, r4, r5 at 14.101 s — inside c1's extended
  window. c2 writes at 14.3 s, c1 at 14.5 s; c1's clock ends its lease at
  14.898 s and it releases; c2 releases at 15.101 s.

Traces written before lease extensions have promise lines without "from";
the loader reads those as "grant" (tested inline).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

S = 1_000_000_000
MS = 1_000_000

GC_VERDICTS = {
    "scenario": "single-node-gc-pause",
    "variants": [
        {"name": "base", "verdicts": {
            "grant-exclusive": {"status": "holds", "count": 0},
            "belief-exclusive": {"status": "violated", "count": 1, "witness": {
                "at_ns": 11 * S + MS,
                "text": "c2 (session 2) granted at 11.001s while c1 (session 1) still believes it holds the lock"}},
            "resource-exclusive": {"status": "violated", "count": 1, "witness": {
                "at_ns": 15 * S + 5 * MS // 2,
                "text": "session 1 write accepted at 15.0025s after session 2's write at 11.0025s"}},
            "resource-current": {"status": "violated", "count": 1, "witness": {
                "at_ns": 15 * S + 5 * MS // 2,
                "text": "c1 (session 1) write accepted at 15.0025s while nobody holds the lock"}},
            "invariant": {"status": "violated", "count": 1, "witness": {
                "at_ns": 25 * S, "text": "counter is 1 after 2 accepted increments"}},
        }},
        {"name": "fenced", "verdicts": {
            "grant-exclusive": {"status": "holds", "count": 0},
            "belief-exclusive": {"status": "violated", "count": 1, "witness": {
                "at_ns": 11 * S + MS, "text": "c2 granted while c1 believes"}},
            "resource-exclusive": {"status": "holds", "count": 0},
            "resource-current": {"status": "holds", "count": 0},
            "invariant": {"status": "holds", "count": 0},
        }},
    ],
}


REDLOCK_EXTEND_VERDICTS = {
    "scenario": "redlock-extend-slew",
    "variants": [
        {"name": "base", "verdicts": {
            "grant-exclusive": {"status": "violated", "count": 1, "witness": {
                "at_ns": 14_101 * MS,
                "text": "c2 (session 2) granted at 14.101s while c1's session 1, granted at 1ms, extended at 5.001s, "
                        "was promised until 14.898s and not released"}},
            "belief-exclusive": {"status": "violated", "count": 1, "witness": {
                "at_ns": 14_101 * MS, "text": "c2 (session 2) began believing it held the lock at 14.101s while c1 "
                                              "(session 1) had believed so since 1ms"}},
            "resource-exclusive": {"status": "violated", "count": 1, "witness": {
                "at_ns": 14_500 * MS + MS // 2, "text": "c1 (session 1) write accepted at 14.5005s resumed session 1"}},
            "resource-current": {"status": "violated", "count": 1, "witness": {
                "at_ns": 14_500 * MS + MS // 2, "text": "c1 (session 1) write accepted at 14.5005s while the service "
                                                        "holder was c2's session 2"}},
            "invariant": {"status": "holds", "count": 0},
        }},
    ],
}


@pytest.fixture
def redlock_extend_path() -> Path:
    return DATA / "redlock_extend_slew.jsonl"


@pytest.fixture
def redlock_extend_verdicts(tmp_path: Path) -> Path:
    """Verdicts for redlock_extend_slew.jsonl in the simulator's --json shape (one variant, base)."""
    path = tmp_path / "redlock_extend_verdicts.json"
    path.write_text(json.dumps(REDLOCK_EXTEND_VERDICTS), encoding="utf-8")
    return path


@pytest.fixture
def gc_path() -> Path:
    return DATA / "single_node_gc_pause.jsonl"


@pytest.fixture
def redlock_path() -> Path:
    return DATA / "redlock_clock_jump.jsonl"


@pytest.fixture
def every_path() -> Path:
    return DATA / "every_line_type.jsonl"


@pytest.fixture
def gc_verdicts(tmp_path: Path) -> Path:
    """The GC story's verdicts in the simulator's --json shape: variants base and fenced."""
    path = tmp_path / "gc_verdicts.json"
    path.write_text(json.dumps(GC_VERDICTS), encoding="utf-8")
    return path


@pytest.fixture
def run_cli():
    """Runs analysis/timeline.py as a user would; returns the CompletedProcess."""
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(ROOT / "analysis" / "timeline.py"), *map(str, args)],
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
    return run
