"""The timeline's SVG: hover titles on its marks (analysis/timeline_svg.py, timeline_tips.py), well-formed and the
same bytes for the same trace. Traces are the hand-written fixtures of data/ (conftest.py tells their stories);
catalogue runs are in test_timeline_catalogue.py.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from analysis import style, timeline
from analysis.timeline_svg import with_titles
from analysis.timeline_tips import burst_tip
from analysis.trace import JudgedBelief, load
from analysis.trace_records import Message
from svg_titles import SVG, hover_titles


def test_with_titles_escapes_and_opens_the_group():
    """A title goes in as the group's first child, its text escaped; groups without a text are left alone."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><g id="tip-0"><path d="M 0 0"/></g>'
           '<g id="tip-1"><path d="M 1 1"/></g><g id="patch_1"/></svg>')
    out = with_titles(svg, {"tip-0": 'REPLICAOF <master> & "x"'})
    root = ET.fromstring(out)
    first = root.find(f"{SVG}g")
    assert first[0].tag == f"{SVG}title" and first[0].text == 'REPLICAOF <master> & "x"'
    assert [c.tag for c in root.findall(f"{SVG}g")[1]] == [f"{SVG}path"]


def test_svg_titles_name_beliefs_holds_ops_pauses_and_violations(gc_path, tmp_path):
    """The GC story's SVG: c1's belief bar says its session, token, true-time span and why it ended; r1's bars whose
    value and why it went; the late write that it was accepted; the pause its span; the violation markers the
    property and witness."""
    svg = tmp_path / "gc.svg"
    timeline.render(load(gc_path), [svg])
    titles = hover_titles(svg)
    assert "c1 · session 1\nbelieves it holds the lock from 0.001 s to 15.003 s (15.002 s)\nended: released" in titles
    assert "r1 · key lock holds c1's value 5f3a9c2e7b104d81, session 1\nfrom 0.0005 s to 10.0005 s (10 s)\n" \
           "went: expired" in titles
    assert "c1 write at 15.0025 s · session 1 · no token\naccepted; after it: counter = 1" in titles
    assert "c1 paused from 0.002 s to 15.002 s (15 s)" in titles
    assert any(t.startswith("P2 belief-exclusive violated (1×), first witness at 11.001 s\n") for t in titles)


def test_svg_is_the_same_file_for_the_same_trace(redlock_extend_path, tmp_path):
    """Two renders of one trace are byte for byte the same SVG (fixed hash salt, no date), with the hover texts."""
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    trace = load(redlock_extend_path)
    timeline.render(trace, [a])
    timeline.render(trace, [b])
    assert a.read_bytes() == b.read_bytes()
    text = a.read_text(encoding="utf-8")
    assert "<dc:date>" not in text and "<title>" in text


def test_partition_bar_names_its_sides(split_brain_path, tmp_path):
    """The fixture's partition line records its groups: the network lane's bar says who was on which side, and its
    hover title too. A trace whose partition lines have no groups (written before they were) shows the name only."""
    with style.context():
        fig = timeline.draw(load(split_brain_path))
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "partition 0 (drop): {M, c1} | {R, s1, s2, s3, c2}" in texts
    svg = tmp_path / "split.svg"
    timeline.render(load(split_brain_path), [svg])
    assert "partition 0 (drop) from 1 s to 4 s (3 s)\nsides: {M, c1} | {R, s1, s2, s3, c2}" in hover_titles(svg)
    with style.context():
        old = timeline.draw(load(Path(split_brain_path).with_name("redlock_clock_jump.jsonl")), window=(0, 6))
    assert "partition 0 (drop)" in [t.get_text() for t in old.axes[0].texts]


def test_belief_titles_follow_the_judged_lines(failover_path, tmp_path):
    """Every judged belief has a hover title on its bar, with its own start and end."""
    trace = load(failover_path)
    svg = tmp_path / "failover.svg"
    timeline.render(trace, [svg])
    titles = hover_titles(svg)
    for b in trace.of(JudgedBelief):
        head = f"{b.client} · session {b.session}"
        assert any(t.startswith(head + "\n") or t.startswith(head + " · fencing token") for t in titles), head


def test_a_burst_title_tells_every_pair_a_line_per_sender():
    """Forty dropped messages from four senders to five nodes: every pair is in the title, one line per sender (the
    busiest first), none cut off with "and N more"."""
    msgs = [Message(t=1_000_000 * i, type="partition-drop", sender=f"c{1 + i % 4}", receiver=f"r{1 + i % 5}", msg="")
            for i in range(40)]
    lines = burst_tip("dropped", msgs).split("\n")
    assert lines[0] == "40 messages dropped from 0 s to 0.039 s"
    assert len(lines) == 5 and all(line.startswith(f"c{n} → ") for n, line in zip((1, 2, 3, 4), lines[1:]))
    assert sum(line.count("×") for line in lines) == 20 and "more" not in "\n".join(lines)
