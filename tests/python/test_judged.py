"""The judged lines of real traces agree with what ``locksim run --json`` says, and the timeline draws them.

Every catalogue scenario is run once by the real simulator ($LOCKSIM_BIN, as CTest sets it, or build/locksim) with
``--json --trace``; each variant's trace must carry the checkers' verdicts exactly as the JSON has them, one
belief line per session, holder lines that cover what liveness counts as held, and role intervals that tile each
Redis node's run — and the witnesses must sit where the judged intervals say they do.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from analysis import style, timeline, timeline_model as model, timeline_replication as repl
from analysis.trace import (Fault, 
    JUDGED_TYPES, JudgedBelief, JudgedHolder, JudgedRole, JudgedVerdict, JudgedWindow, Promise, Role, load)

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))



@pytest.fixture(scope="module")
def runs(locksim_bin, tmp_path_factory) -> list[tuple[str, dict, Path]]:
    """(scenario, the variant's --json object, its trace) for every variant of every catalogue scenario."""
    out = tmp_path_factory.mktemp("judged")
    found = []
    for toml in SCENARIOS:
        trace = out / f"{toml.stem}.jsonl"
        done = subprocess.run([str(locksim_bin), "run", str(toml), "--json", "--trace", str(trace)],
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr
        variants = json.loads(done.stdout)["variants"]
        for v in variants:
            path = trace if len(variants) == 1 else out / f"{toml.stem}.{v['name']}.jsonl"
            found.append((toml.stem, v, path))
    return found


@pytest.fixture(scope="module")
def loaded(runs) -> list:
    """(name, variant, the loaded trace) for every run, each trace read once for all the tests here."""
    return [(f"{scenario} · {variant['name']}", variant, load(path)) for scenario, variant, path in runs]


def test_verdict_lines_are_the_json_verdicts(loaded):
    """Each property's verdict line is the --json verdict, witness and all, field for field."""
    for name, variant, trace in loaded:
        lines = [json.loads(l) for l in Path(trace.source).read_text(encoding="utf-8").splitlines()
                 if '"type":"verdict"' in l]
        got = {l.pop("property"): {k: v for k, v in l.items() if k not in ("t", "type")} for l in lines}
        assert got == variant["verdicts"], name
        assert list(got) == list(variant["verdicts"]), name


def test_one_belief_line_per_session(loaded):
    """As many belief lines as the run had sessions (liveness, and the clients' sessions); the grants already over
    when acquire returned are liveness's expired grants."""
    for name, variant, trace in loaded:
        beliefs = trace.of(JudgedBelief)
        assert len(beliefs) == variant["liveness"]["sessions"] == sum(c["sessions"] for c in variant["clients"]), name
        expired = [b for b in beliefs if b.promised_end is not None and b.promised_end <= b.start]
        assert len(expired) == variant["liveness"]["expired_grants"], name
        assert all(b.start <= b.end <= trace.end_ns for b in beliefs), name


def test_holder_lines_cover_what_liveness_counts_as_held(loaded):
    """The holder stretches add up to the run's length minus the time liveness says nobody held the lock."""
    for name, variant, trace in loaded:
        held = sum(h.end - h.start for h in trace.of(JudgedHolder))
        liveness = variant["liveness"]
        assert held == liveness["run_length_ns"] - liveness["unheld_ns"], name
        starts = [h.start for h in trace.of(JudgedHolder)]
        assert starts == sorted(starts), name


def test_role_intervals_tile_each_node(loaded):
    """Each Redis node's and store member's role intervals run from 0 to the run's end without gaps; each change is
    a role fact."""
    for name, _, trace in loaded:
        roles = trace.of(JudgedRole)
        assert {r.node for r in roles} == set(trace.run.names_of("redis")) | set(trace.run.names_of("store")), name
        for node in {r.node for r in roles}:
            mine = [r for r in roles if r.node == node]
            assert mine[0].start == 0 and mine[-1].end == trace.end_ns and not mine[0].changed, name
            assert all(a.end == b.start for a, b in zip(mine, mine[1:])), name
        # A store member's role line names its leader and term where a Redis node's names its master and epoch.
        changes = [(r.start, r.node, r.role, r.master or r.leader, r.epoch) for r in roles if r.changed]
        facts = [(r.t, r.node, r.role, r.master or r.leader, r.epoch if r.epoch is not None else r.term)
                 for r in trace.of(Role)]
        assert sorted(changes) == sorted(facts), name


def test_witnesses_sit_inside_the_judged_intervals(loaded):
    """A P1 witness (a second grant) falls inside the other session's promised window; a P2 witness (a belief
    begins) inside the other session's belief: the judged intervals are the ones the checkers used."""
    checked = 0
    for name, _, trace in loaded:
        verdicts = {v.property: v for v in trace.of(JudgedVerdict)}
        p1, p2 = verdicts["grant-exclusive"].witness, verdicts["belief-exclusive"].witness
        if p1 is not None:
            pieces = [w for w in trace.of(JudgedWindow) if w.session == p1.other_session]
            assert any(w.start <= p1.at_ns and (w.end is None or p1.at_ns < w.end) for w in pieces), name
            checked += 1
        if p2 is not None:
            (other,) = [b for b in trace.of(JudgedBelief) if b.session == p2.other_session]
            assert other.start <= p2.at_ns < other.end, name
            checked += 1
    assert checked > 20


def test_judged_lines_close_the_trace(loaded):
    """The judged lines come last, all at the run's end, as many of each as their head line says; every line's
    time is at or after the previous one's."""
    for name, _, trace in loaded:
        head = trace.require_judged()
        raw = [json.loads(l) for l in Path(trace.source).read_text(encoding="utf-8").splitlines()]
        times = [l["t"] for l in raw]
        assert times == sorted(times), name
        first = next(i for i, l in enumerate(raw) if l["type"] == "judged")
        assert all(l["type"] in JUDGED_TYPES and l["t"] == trace.end_ns for l in raw[first:]), name
        # Before them, one clock line per process (in id order), after the promises.
        clocks = raw[first - len(trace.run.processes):first]
        assert [l["type"] for l in clocks] == ["clock"] * len(clocks), name
        assert [l["process"] for l in clocks] == [p.name for p in trace.run.processes], name
        assert raw[first - len(clocks) - 1]["type"] in ("promise", "end"), name
        assert head.sessions == len([p for p in trace.of(Promise) if p.origin == "grant"]), name


def test_the_timeline_model_reads_every_real_trace(loaded):
    """Every catalogue variant's trace gives the timeline its model: one belief per session, windows in order."""
    for name, _, trace in loaded:
        beliefs = model.belief_intervals(trace)
        assert [b.session for b in beliefs] == [b.session for b in trace.of(JudgedBelief)], name
        for b in beliefs:
            bands = model.window_bands(b)
            assert all(a < z for a, z, _ in bands if z is not None), name
            assert all(b.start_ns <= a for a, _, _ in bands), name
        changes = repl.role_changes(trace)
        assert [c.t for c in changes] == sorted(c.t for c in changes), name
        assert all(c.before is not None for c in changes), name


@pytest.mark.parametrize("scenario, variant, expect", [
    ("master-replica-failover", "base", ["M (master)", "R1 (replica)", "service holder", "promoted to master"]),
    ("client-presets", "node-redlock-v5", ["expired at grant"]),
    ("single-node-gc-pause", "base", ["paused"]),
])
def test_real_traces_draw_with_their_own_verdicts(runs, tmp_path, scenario, variant, expect):
    """A real trace draws, its violations marked from its own verdict lines (no --verdicts needed)."""
    (path,) = [p for s, v, p in runs if s == scenario and v["name"] == variant]
    (doc,) = [v for s, v, p in runs if s == scenario and v["name"] == variant]
    svg = tmp_path / "t.svg"
    timeline.render(load(path), [svg], variant=variant)
    text = svg.read_text(encoding="utf-8")
    for label in expect:
        assert label in text, label
    violated = [f"{v['id']} {name} (" for name, v in doc["verdicts"].items() if v["status"] == "violated"]
    assert all(v in text for v in violated), violated
    with style.context():
        under = [t.get_text() for t in timeline.draw(load(path)).texts]
    assert any(t.startswith("Verdicts: violated" if violated else "Verdicts: nothing violated") for t in under)


def _trace_of(runs, scenario: str, variant: str):
    (path,) = [p for s, v, p in runs if s == scenario and v["name"] == variant]
    return load(path)


def test_clock_lines_read_as_the_scenarios_declare(runs):
    """The clock lines give back each process's clock exactly: C's wall clock jumps +15 s at 1 s in
    redlock-clock-jump (its monotonic clock does not), and runs 2 % fast in redlock-clock-drift; a clock without
    faults reads true time."""
    s = 1_000_000_000
    jump = _trace_of(runs, "redlock-clock-jump", "base").clocks
    c = jump["C"]
    assert (c.wall(s - 1), c.wall(s), c.wall(3 * s)) == (s - 1, 16 * s, 18 * s)
    assert (c.monotonic(s), c.read("monotonic", 3 * s)) == (s, 3 * s)
    assert jump["c1"].is_true_time and not c.is_true_time
    drift = _trace_of(runs, "redlock-clock-drift", "base").clocks["C"]
    assert drift.monotonic(10 * s) == drift.wall(10 * s) == 10 * s + 200_000_000
    assert drift.monotonic(7) == 7  # floor(7 * 1.02) in integer ns, as the simulator rounds


def test_partition_lines_name_their_groups(runs):
    """A partition's fault line says who was on which side (sentinel-split-brain cuts {M, c1} from the rest)."""
    (cut,) = [f for f in _trace_of(runs, "sentinel-split-brain", "base").of(Fault) if f.fault == "partition"]
    assert cut.groups == (("M", "c1"), ("R", "s1", "s2", "s3", "c2"))


def test_the_interactive_timeline_reads_every_real_trace(loaded):
    """Every catalogue variant's trace gives the interactive timeline its lanes; every violated property is there
    with the items its witness names, and every item sits in a lane."""
    from analysis.timeline_html_data import timeline_data
    for name, variant, trace in loaded:
        data = timeline_data(trace)
        lanes = set(data.lane_ids())
        assert all(i.group in lanes for i in data.items), name
        violated = {p for p, v in variant["verdicts"].items() if v["status"] == "violated"}
        assert {v["property"] for v in data.violations} == violated, name
        assert all(v["items"] for v in data.violations), name
