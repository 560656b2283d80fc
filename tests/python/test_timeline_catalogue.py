"""Timelines of real catalogue runs: labels that never overlap, SVG marks that carry their facts on hover, and
partitions that say who was on which side.

The scenarios are run by the real simulator ($LOCKSIM_BIN, as CTest sets it, or build/locksim). The busiest picture
of the catalogue is transactional-contention's no-lock variant (over two hundred labels, drawn whole); the zoomed
windows are those where, before labels were placed as boxes, a burst's count written just above its line ran into
the next burst's count on the network lane. Expected times are read from each trace's own records, not written
here: the tests check that each mark's title carries its record's fields.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from analysis import style, timeline
from analysis.timeline_model import fmt_duration, fmt_time
from analysis.trace import Fault, JudgedBelief, JudgedVerdict, KeyDropped, KeyHeld, Op, Trace, load
from label_boxes import overlapping_texts
from svg_titles import hover_titles

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def catalogue(locksim_bin, tmp_path_factory):
    """run(scenario, variant) -> the trace of that catalogue variant (each run once per module)."""
    out = tmp_path_factory.mktemp("catalogue")
    traces: dict[tuple[str, str], Trace] = {}

    def run(scenario: str, variant: str) -> Trace:
        if (scenario, variant) not in traces:
            path = out / f"{scenario}.{variant}.jsonl"
            done = subprocess.run([str(locksim_bin), "run", str(ROOT / "scenarios" / f"{scenario}.toml"),
                                   "--variant", variant, "--trace", str(path)],
                                  capture_output=True, text=True, cwd=ROOT, timeout=120)
            assert done.returncode == 0, done.stderr
            traces[scenario, variant] = load(path)
        return traces[scenario, variant]
    return run


@pytest.mark.parametrize("scenario, variant, window", [
    ("transactional-contention", "no-lock", (None, None)),
    ("sentinel-split-brain", "base", (2.0, 4.0)),
    ("master-replica-failover", "base", (0.7, 2.7)),
])
def test_labels_never_overlap_on_catalogue_runs(catalogue, scenario, variant, window):
    """Every visible text of the figure (labels, lane names, ticks, legend, titles, witness lines) keeps clear of
    every other, as the renderer measures them."""
    with style.context():
        fig = timeline.draw(catalogue(scenario, variant), window=window)
    assert overlapping_texts(fig) == []


def test_svg_titles_carry_each_marks_fields(catalogue, tmp_path):
    """single-node-gc-pause · fenced as SVG: c1's belief bar, r1's hold of c1's value, c1's late write (rejected: a
    stale token), c1's pause and the P2 marker each have a title with their record's fields."""
    trace = catalogue("single-node-gc-pause", "fenced")
    svg = tmp_path / "gc-fenced.svg"
    timeline.render(trace, [svg])
    titles = hover_titles(svg)

    b = next(b for b in trace.of(JudgedBelief) if b.client == "c1")
    assert (f"c1 · session {b.session} · fencing token {b.token}\nbelieves it holds the lock from "
            f"{fmt_time(b.start)} to {fmt_time(b.end)} ({fmt_duration(b.end - b.start)})\nended: released") in titles
    held = next(k for k in trace.of(KeyHeld) if k.value == b.value)
    dropped = next(k for k in trace.of(KeyDropped) if k.value == b.value)
    assert (f"r1 · key lock holds c1's value {b.value}, session {b.session}\nfrom {fmt_time(held.t)} to "
            f"{fmt_time(dropped.t)} ({fmt_duration(dropped.t - held.t)})\nwent: {dropped.reason}") in titles
    late = next(o for o in trace.of(Op) if o.client == "c1" and not o.accepted)
    assert (f"c1 {late.op} at {fmt_time(late.t)} · session {late.session} · token {late.token}\n"
            f"rejected: stale-token") in titles
    pause = next(f for f in trace.of(Fault) if f.fault == "pause" and f.target == "c1")
    assert any(t.startswith(f"c1 paused from {fmt_time(pause.t)} to ") for t in titles)
    p2 = next(v for v in trace.of(JudgedVerdict) if v.id == "P2")
    assert (f"P2 belief-exclusive violated ({p2.count}×), first witness at {fmt_time(p2.witness.at_ns)}\n"
            f"{p2.witness.text}") in titles


def test_partition_bar_names_its_sides_in_a_catalogue_run(catalogue, tmp_path):
    """sentinel-split-brain: the zones as the scenario cuts them, on the network lane's bar and in its title."""
    trace = catalogue("sentinel-split-brain", "base")
    with style.context():
        fig = timeline.draw(trace)
    assert "partition 0 (drop): {M, c1} | {R, s1, s2, s3, c2}" in [t.get_text() for t in fig.axes[0].texts]
    svg = tmp_path / "split.svg"
    timeline.render(trace, [svg])
    assert any(t.startswith("partition 0 (drop) from ") and t.endswith("\nsides: {M, c1} | {R, s1, s2, s3, c2}")
               for t in hover_titles(svg))
