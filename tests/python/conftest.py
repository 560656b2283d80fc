"""Shared fixtures for the analysis tests: the hand-made traces, verdict files, and a CLI runner.

The traces in data/ are written by hand in the simulator's line format
(docs/trace.md; a unit test holds them to the schema): facts and messages as the story
needs them, each message line with its payload fields after "kind" (its
"msg" is the same in words), the promise lines at the run's end, and last the
judged lines. Those are not written by hand: they are what the simulator's
own checkers compute from the trace's facts — tests/unit/judged_trace_test.cc
(JudgedFixtures) reads each fixture back into a History, judges it and
requires its judged lines to be exactly that; after editing a fixture,
rewrite them with
    LOCKSIM_REWRITE_JUDGED=1 build/tests/locksim_tests --gtest_filter='*JudgedFixtures*'
None of them is a real trace of the catalogue (test_judged.py runs the real
simulator for that). The stories:
- single_node_gc_pause.jsonl — Kleppmann's GC pause (docs/catalogue.md, row 1): one
  node r1, TTL 10 s; c1 is granted at 1 ms, reads, pauses 15 s; r1's key
  expires at 10.0005 s; c2, after two failed tries, is granted at 11.001 s,
  reads, writes and releases; c1 wakes at 15.002 s and writes anyway.
- redlock_clock_jump.jsonl — catalogue row 6: five nodes A–E, quorum 3; c1
  holds A, B, C; C's wall clock jumps +15 s at 1 s and its key expires; c2
  gets C, D, E at 2.001 s; c1 writes at 1.5 s and 4 s, c2 at 3 s.
- every_line_type.jsonl — not a catalogue story: a small run that uses every
  line type of an unreplicated run (replicated and role lines are in the
  replicated traces below) and fault verb once (lost, held and crash-dropped messages,
  overlapping pauses, crashes with and without restart, fencing rejections,
  a clock slew, a lease extension and promise lines from grant and extend,
  fault-fired lines with and without effect).
- redlock_extend_slew.jsonl — Redlock on five nodes r1..r5, quorum 3: c1
  holds r1, r2, r3 (r4, r5 cut off from it) from 1 ms, promised until
  9.898 s, and extends at 5.001 s to 14.898 s; r3's clock slews +50 % from 6 s
  to 8 s, so c1's key on r3 expires at 14.001 s; c2 (cut off from r1, r2)
  fails 11 times, 100 ms apart from 13 s (r4, r5 take its value, it deletes
  them again), and is granted r3, r4, r5 at 14.101 s — inside c1's extended
  window. c2 writes at 14.3 s, c1 at 14.5 s; c1's clock ends its lease at
  14.898 s and it releases; c2 releases at 15.101 s.

- master_replica_failover.jsonl — catalogue row 11: master M, replica R
  (replication delay 10 ms), sentinels s1..s3 (down after 1 s). c1 is
  granted on M at 2 ms and M crashes at that instant with c1's SET still in
  its replication buffer: R never gets a "replicated" line for it. The
  sentinels see M down at 1.04-1.11 s (s2, s3, s1), s3 asks for votes in
  epoch 1 at 1.15 s, s1 and s2 vote for it, s3 sends REPLICAOF NO ONE and R
  is promoted at 1.161 s; +switch-master M -> R from 1.202 s. c2 (two attempts
  at the dead M, dropped) follows the announcement and is granted on R at
  1.302 s, releases at 2.304 s; c1 believes until it releases at 8.004 s.
- master_replica_replicated.jsonl — #11 · replicated-before-crash: the same,
  but M ships c1's SET at 11 ms (R's copy from 12 ms, lag 11 ms after M's
  key-held at 1 ms) and crashes at 1 s. R is promoted at 2.161 s and inherits
  c1's value (key-held at the promotion); c2 retries once a second and is
  granted on R only after c1's release at 8.004 s.
- sentinel_split_brain.jsonl — #12, with the timings moved so the demotion
  falls inside c1's lease: zones {M, c1} and {R, s1..s3, c2} are cut apart
  from 1 s to 4 s; the sentinels promote R at 2.111 s (s2 leads, epoch 1). At
  3 s c1 is granted on M and c2 on R (both at 3.002 s). After the heal M
  keeps answering "master" and at 12.1 s the sentinels send REPLICAOF R: M
  drops c1's key (key-dropped "demoted"), becomes R's replica and resyncs
  (c2's value as a copy from the snapshot, 12.103 s, until R's DEL reaches it
  at 12.504 s). Both clients work 9.5 s: c1's release at 12.502 s is refused
  READONLY by M, c2's deletes on R.
- oversell_incident.jsonl — #13: one node r1, TTL 10 s, stock 1, a service
  "identity" paused from 0 to 30 s. c1 is granted at 2 ms, c2 at 10.122 s,
  c3 at 20.242 s (retrying once a second until the key expires), each calls
  identity right after its grant; the calls reach it at 30 s and are answered
  at 30.005 s. All three read stock 1 and decrement it (0, -1, -2); c1's plain
  DEL deletes c3's key, c2's and c3's find nothing.

Older traces (promise lines without "from", message lines without fields,
no judged lines) are tested inline. In the replicated traces the sentinels'
pings are thinned once the failover is over (every 250 ms to the dead
master, every second otherwise) to keep the files small, and their INFO
traffic is left out: the PONGs say only that a node is alive. The sentinels'
timings in them (+switch-master tens of milliseconds after the promotion) are
those of the model before it learned roles from INFO alone, as the stories
above tell them; nothing drawn depends on that gap.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

@pytest.fixture(scope="session")
def locksim_bin() -> Path:
    """The simulator the tests run: $LOCKSIM_BIN (CTest sets it), else build/locksim; skipped when absent."""
    path = Path(os.environ.get("LOCKSIM_BIN") or ROOT / "build" / "locksim")
    if not path.is_file():
        pytest.skip(f"no simulator at {path}: build it (bash scripts/setup) or set LOCKSIM_BIN")
    return path.resolve()


S = 1_000_000_000
MS = 1_000_000

GC_VERDICTS = {
    "schema": "locksim-results/2",
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
    "schema": "locksim-results/2",
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
def failover_path() -> Path:
    return DATA / "master_replica_failover.jsonl"


@pytest.fixture
def replicated_path() -> Path:
    return DATA / "master_replica_replicated.jsonl"


@pytest.fixture
def split_brain_path() -> Path:
    return DATA / "sentinel_split_brain.jsonl"


@pytest.fixture
def oversell_path() -> Path:
    return DATA / "oversell_incident.jsonl"


FAILOVER_VERDICTS = {
    "schema": "locksim-results/2",
    "scenario": "master-replica-failover",
    "variants": [
        {"name": "base", "verdicts": {
            "grant-exclusive": {"status": "violated", "count": 1, "witness": {
                "at_ns": 1302 * MS,
                "text": "c2 (session 2) granted at 1.302s on R while c1's session 1, granted at 2ms on M, was promised "
                        "until 9.898s"}},
            "belief-exclusive": {"status": "violated", "count": 1, "witness": {
                "at_ns": 1302 * MS, "text": "c2 (session 2) began believing at 1.302s while c1 (session 1) had "
                                            "believed so since 2ms"}},
        }},
    ],
}


@pytest.fixture
def failover_verdicts(tmp_path: Path) -> Path:
    path = tmp_path / "failover_verdicts.json"
    path.write_text(json.dumps(FAILOVER_VERDICTS), encoding="utf-8")
    return path


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
