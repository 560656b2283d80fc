"""Tests for analysis/trace.py (the loader) and analysis/timeline.py (the picture and its CLI).

What is drawn is computed by pure functions, tested here on the hand-made
traces without plotting; the drawing is tested through the files it writes
(PNG, SVG with text kept as text) and the lines it puts on the axes.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.colors
import matplotlib.image
import pytest
from matplotlib.patches import Rectangle

from analysis import style, timeline
from analysis.trace import (
    App, BeliefEnd, Complete, End, Extend, Fault, GiveUp, Grant, Invoke, KeyDropped, KeyHeld, Message, Op,
    PhaseReached, Promise, Release, Replicated, Role, TraceError, Unknown, Want, load, load_verdicts, parse_lines)

S = 1_000_000_000
MS = 1_000_000
EXTENDED_HATCH = "\\" * 4  # what renewals added to a promised window: "////" mirrored


def header(processes, nodes, quorum=1, app="none") -> str:
    return json.dumps({"t": 0, "type": "run", "seed": "1",
                       "processes": [{"name": n, "kind": k} for n, k in processes],
                       "keys": ["lock"], "service_nodes": nodes, "quorum": quorum, "app": app})


def line(t: int, type_: str, **fields) -> str:
    return json.dumps({"t": t, "type": type_, **fields})


ONE_NODE = [("c1", "client"), ("c2", "client"), ("r1", "redis"), ("db", "resource")]


def grant(t, session, client, value, token=-1):
    return line(t, "grant", session=session, client=client, value=value, token=token, validity_ns=10 * S,
                clock="monotonic")


# --- the loader -----------------------------------------------------------------


def test_loader_parses_every_line_type(every_path):
    """Every line type the simulator writes becomes its typed record, with its fields."""
    trace = load(every_path)
    kinds = {type(r) for r in trace.records}
    assert kinds == {Message, Invoke, Complete, Want, GiveUp, Grant, Extend, BeliefEnd, Release, KeyHeld, KeyDropped,
                     Op, App, Fault, PhaseReached, End, Promise}
    assert {m.type for m in trace.of(Message)} == {"send", "deliver", "lost", "partition-drop", "partition-hold",
                                                   "drop-crashed"}
    assert {f.fault for f in trace.of(Fault)} == {"pause", "resume", "crash", "restart", "clock-jump", "clock-drift",
                                                  "clock-slew", "partition", "heal"}
    g = trace.of(Grant)[0]
    assert (g.t, g.session, g.client, g.value, g.token, g.validity_ns, g.clock) == (
        MS, 1, "c1", "11aa22bb33cc44dd", 33, 4_899 * MS, "wall")
    rejected = [o for o in trace.of(Op) if not o.accepted]
    assert [(o.client, o.op, o.reject, o.token) for o in rejected] == [
        ("c3", "check-and-decrement", "out-of-stock", 34), ("c1", "decrement", "stale-token", 33)]
    partition = next(f for f in trace.of(Fault) if f.fault == "partition")
    assert (partition.target, partition.amount, partition.mode) == (None, 0, "hold")
    sent = next(m for m in trace.of(Message) if m.type == "lost")
    assert (sent.sender, sent.receiver, sent.msg) == ("c1", "r3", "SET lock 11aa22bb33cc44dd NX PX 5000")
    assert trace.of(App)[-1].quiescent is True and trace.of(App)[-1].stock == 0
    assert trace.of(Extend) == [Extend(5001 * MS, 2, "c3", "monotonic")]
    slew = next(f for f in trace.of(Fault) if f.fault == "clock-slew")
    assert (slew.t, slew.target, slew.amount) == (4 * S, "r3", -50_000)
    assert [(p.session, p.origin, p.promised_end) for p in trace.of(Promise)] == [
        (1, "grant", 2900 * MS), (2, "grant", 8400 * MS), (2, "extend", 9899 * MS)]
    assert set(trace.frames()) == {"send", "deliver", "lost", "partition-drop", "partition-hold", "drop-crashed",
                                   "invoke", "complete", "want", "give-up", "grant", "extend", "belief-end",
                                   "release", "key-held", "key-dropped", "op", "app", "fault", "phase", "end",
                                   "promise"}
    assert list(trace.frame("promise")["origin"]) == ["grant", "grant", "extend"]


def test_loader_reads_the_header_and_tables(gc_path):
    """The run header names clients, nodes and resource; frames are tables with one row per line."""
    trace = load(gc_path)
    assert trace.run.seed == "7" and trace.run.quorum == 1 and trace.run.app == "counter"
    assert (trace.clients, trace.nodes, trace.resources) == (["c1", "c2"], ["r1"], ["resource"])
    assert trace.end_ns == 25 * S
    grants = trace.frame("grant")
    assert list(grants["client"]) == ["c1", "c2"] and list(grants["t"]) == [MS, 11 * S + MS]
    promises = trace.frame(Promise)
    assert list(promises["promised_end"]) == [10 * S, 21 * S]
    assert len(trace.frame("send")) == len([m for m in trace.of(Message) if m.type == "send"])


def test_promise_of_minus_one_means_never():
    """A promise line with promised_end -1 (the clock never gets there) loads as None."""
    trace = parse_lines([header(ONE_NODE, ["r1"]), grant(0, 1, "c1", "aa"), line(5 * S, "end"),
                         line(0, "promise", session=1, client="c1", promised_end=-1)])
    assert trace.of(Promise)[0].promised_end is None
    assert timeline.belief_intervals(trace)[0].window_end_ns is None


def test_promise_without_from_is_a_grants_and_a_bad_from_is_refused():
    """A promise line without "from" (older traces) is the grant's; a "from" other than grant/extend is an error."""
    trace = parse_lines([header(ONE_NODE, ["r1"]), grant(0, 1, "c1", "aa"), line(5 * S, "end"),
                         line(0, "promise", session=1, client="c1", promised_end=3 * S)])
    assert trace.of(Promise)[0].origin == "grant"
    assert timeline.belief_intervals(trace)[0].window_end_ns == 3 * S
    with pytest.raises(TraceError, match=r'^<t>:2: "promise" field "from" should be grant or extend'):
        parse_lines([header(ONE_NODE, ["r1"]),
                     line(0, "promise", session=1, client="c1", promised_end=3 * S, **{"from": "renew"})],
                    source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "extend" line lacks "clock"$'):
        parse_lines([header(ONE_NODE, ["r1"]), line(0, "extend", session=1, client="c1")], source="<t>")


def test_unknown_line_types_are_kept_not_rejected():
    """A line type this reader does not know (a newer simulator) is kept as Unknown."""
    trace = parse_lines([header(ONE_NODE, ["r1"]), line(7, "sentinel-vote", node="s1")])
    assert trace.records == [Unknown(7, "sentinel-vote", {})]
    assert trace.records[0].fields["node"] == "s1"


@pytest.mark.parametrize("lines, message", [
    ([], "<t>: not a locksim trace (empty)"),
    (["hello world"], "<t>:1: not a locksim trace (not JSON"),
    (['{"t":0,"type":"send","from":"c1","to":"r1","msg":"x"}'], "<t>:1: not a locksim trace (the first line"),
    (["[1, 2]"], "<t>:1: not a locksim trace (a line is not"),
])
def test_loader_rejects_what_is_not_a_trace(lines, message):
    """Empty input, non-JSON, or a first line that is no "run" header is refused with source:line."""
    with pytest.raises(TraceError) as err:
        parse_lines(lines, source="<t>")
    assert str(err.value).startswith(message)


def test_loader_names_the_line_of_a_malformed_record():
    """A known line type with a missing or mistyped field is reported as source:line and key."""
    with pytest.raises(TraceError, match=r'^<t>:3: "grant" line lacks "token"$'):
        parse_lines([header(ONE_NODE, ["r1"]), line(0, "want", client="c1"),
                     line(1, "grant", session=1, client="c1", value="aa", validity_ns=1, clock="wall")], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "op" field "accepted" should be bool'):
        parse_lines([header(ONE_NODE, ["r1"]), line(1, "op", session=1, client="c1", op="write", accepted=1,
                                                    reject="none", token=-1)], source="<t>")


def test_load_reports_a_missing_file(tmp_path):
    """load() turns a missing file into a TraceError naming it."""
    with pytest.raises(TraceError, match="nope.jsonl: cannot read"):
        load(tmp_path / "nope.jsonl")


def test_load_verdicts_picks_the_variant(gc_verdicts):
    """Verdicts come from the named variant, in P1..P5 order; several variants need --variant."""
    name, verdicts = load_verdicts(gc_verdicts, "base")
    assert name == "base"
    assert [(v.id, v.violated) for v in verdicts] == [("P1", False), ("P2", True), ("P3", True), ("P4", True),
                                                      ("P5", True)]
    assert verdicts[1].witness_ns == 11 * S + MS and "c2 (session 2)" in verdicts[1].witness_text
    assert [v.violated for v in load_verdicts(gc_verdicts, "fenced")[1]] == [False, True, False, False, False]
    with pytest.raises(TraceError, match="holds 2 variants"):
        load_verdicts(gc_verdicts)
    with pytest.raises(TraceError, match="no variant 'nope'"):
        load_verdicts(gc_verdicts, "nope")


# --- what is drawn, without drawing -----------------------------------------------


def test_belief_intervals_in_the_gc_pause(gc_path):
    """c1 believes from its grant through the whole pause to its release; the promise ends at 10 s."""
    beliefs = timeline.belief_intervals(load(gc_path))
    c1, c2 = beliefs
    assert (c1.client, c1.session, c1.start_ns, c1.end_ns, c1.end_reason) == ("c1", 1, MS, 15 * S + 3 * MS,
                                                                              "released")
    assert (c1.promised_end_ns, c1.window_end_ns) == (10 * S, 10 * S)
    assert (c2.client, c2.session, c2.start_ns, c2.end_ns, c2.end_reason) == ("c2", 2, 11 * S + MS,
                                                                              11 * S + 3 * MS, "released")
    # c2's lease would run to 21 s, but its release at 11.003 s ends the promised window (as P1 reads it).
    assert (c2.promised_end_ns, c2.window_end_ns) == (21 * S, 11 * S + 3 * MS)
    # The picture's point: c1 still believes when c2 is granted.
    assert c1.start_ns < c2.start_ns < c1.end_ns


def test_belief_ends_at_a_crash_or_the_run_end():
    """Without a belief-end, a crash of the client ends its belief; with neither, the run's end does."""
    trace = parse_lines([
        header(ONE_NODE, ["r1"]),
        grant(1 * S, 1, "c1", "aa"),
        line(3 * S, "fault", fault="crash", target="c1", amount=-1),
        grant(4 * S, 2, "c2", "bb", token=7),
        line(9 * S, "end"),
    ])
    b1, b2 = timeline.belief_intervals(trace)
    assert (b1.end_ns, b1.end_reason) == (3 * S, "crashed")
    assert (b2.end_ns, b2.end_reason, b2.token) == (9 * S, "run-end", 7)
    assert b2.promised_end_ns is None  # no promise line at all


def test_recorded_belief_end_reason_wins_at_equal_times():
    """When release and belief-end share an instant, the belief-end's reason is reported."""
    trace = parse_lines([
        header(ONE_NODE, ["r1"]), grant(0, 1, "c1", "aa"),
        line(2 * S, "release", session=1, client="c1"),
        line(2 * S, "belief-end", session=1, client="c1", reason="validity-check"),
        line(3 * S, "end"),
    ])
    assert timeline.belief_intervals(trace)[0].end_reason == "validity-check"


def test_hold_intervals_in_the_gc_pause(gc_path):
    """r1 holds c1's value until it expires at 10.0005 s, then c2's until c2 deletes it."""
    holds = timeline.hold_intervals(load(gc_path))
    assert [(h.node, h.client, h.session, h.start_ns, h.end_ns, h.reason) for h in holds] == [
        ("r1", "c1", 1, MS // 2, 10 * S + MS // 2, "expired"),
        ("r1", "c2", 2, 11 * S + MS // 2, 11 * S + 7 * MS // 2, "deleted"),
    ]


def test_hold_intervals_on_five_nodes(redlock_path):
    """After C's clock jump, C drops c1's value and takes c2's: each node's stretches and owners."""
    holds = timeline.hold_intervals(load(redlock_path))
    by_node = {}
    for h in holds:
        by_node.setdefault(h.node, []).append((h.client, h.start_ns, h.end_ns, h.reason))
    assert by_node == {
        "A": [("c1", MS // 2, 4 * S + 3 * MS // 2, "deleted")],
        "B": [("c1", MS // 2, 4 * S + 3 * MS // 2, "deleted")],
        "C": [("c1", MS // 2, 1100 * MS, "expired"), ("c2", 2 * S + MS // 2, 5 * S + MS // 2, "deleted")],
        "D": [("c2", 2 * S + MS // 2, 5 * S + MS // 2, "deleted")],
        "E": [("c2", 2 * S + MS // 2, 5 * S + MS // 2, "deleted")],
    }


def test_hold_intervals_renewal_overwrite_and_ungranted_values():
    """A renewal continues a stretch, a new value ends it as overwritten, an ungranted value is traced to its SET."""
    trace = parse_lines([
        header(ONE_NODE, ["r1"]),
        line(0, "send", **{"from": "c1", "to": "r1", "msg": "SET lock aa NX PX 10000"}),
        line(1, "key-held", node="r1", key="lock", value="aa"),
        grant(2, 1, "c1", "aa"),
        line(5 * S, "key-held", node="r1", key="lock", value="aa"),  # renewed: same stretch
        line(6 * S, "send", **{"from": "c2", "to": "r1", "msg": "SET lock bb PX 10000"}),
        line(6 * S + 1, "key-held", node="r1", key="lock", value="bb"),
        line(8 * S, "key-dropped", node="r1", key="nope", value="zz", reason="deleted"),  # nothing open: ignored
        line(9 * S, "end"),
    ])
    holds = timeline.hold_intervals(trace)
    assert [(h.value, h.start_ns, h.end_ns, h.reason, h.client, h.session) for h in holds] == [
        ("aa", 1, 6 * S + 1, "overwritten", "c1", 1),
        ("bb", 6 * S + 1, 9 * S, None, "c2", None),
    ]


def test_pause_intervals(gc_path, every_path):
    """Pauses run to their resume; a pause inside a pause does not split it; a crash or the plan ends one."""
    assert timeline.pause_intervals(load(gc_path)) == [timeline.Span("c1", 2 * MS, 15 * S + 2 * MS)]
    assert [(s.what, s.start_ns, s.end_ns) for s in timeline.pause_intervals(load(every_path))] == [
        ("c1", 100 * MS, 1100 * MS)]
    trace = parse_lines([
        header(ONE_NODE, ["r1"]),
        line(1 * S, "fault", fault="pause", target="c1", amount=2 * S),
        line(1 * S, "fault", fault="pause", target="c2", amount=5 * S),
        line(2 * S, "fault", fault="crash", target="c2", amount=-1),
        line(9 * S, "end"),
    ])
    assert [(s.what, s.start_ns, s.end_ns, s.note) for s in timeline.pause_intervals(trace)] == [
        ("c1", 1 * S, 3 * S, "no resume recorded"), ("c2", 1 * S, 2 * S, "ended by crash")]


def test_down_and_partition_intervals(every_path):
    """Crashes last until their restart (or the run's end); partitions until their heal."""
    trace = load(every_path)
    assert [(s.what, s.start_ns, s.end_ns, s.note) for s in timeline.down_intervals(trace)] == [
        ("c3", 6 * S, 10 * S, "no restart"), ("r2", 1 * S, 1500 * MS, "")]
    assert [(s.what, s.start_ns, s.end_ns, s.note) for s in timeline.partition_intervals(trace)] == [
        ("partition 0", 2 * S, 2500 * MS, "hold"), ("partition 1", 2800 * MS, 3200 * MS, "drop")]


def test_ops_carry_the_application_state(gc_path):
    """Each accepted op is paired with the app state recorded right after it: the lost update shows."""
    pairs = timeline.ops_with_state(load(gc_path))
    assert [(op.client, op.op, app.counter if app else None) for op, app in pairs] == [
        ("c1", "read", None), ("c2", "read", None), ("c2", "write", 1), ("c1", "write", 1)]
    assert pairs[-1][1].increments == 2


def test_formatting():
    """Durations, instants and drifts read the way a reviewer says them."""
    assert timeline.fmt_duration(15 * S) == "15 s"
    assert timeline.fmt_duration(250 * MS) == "250 ms"
    assert timeline.fmt_duration(1500 * MS, signed=True) == "+1.5 s"
    assert timeline.fmt_duration(-40_000) == "-40 µs"
    assert timeline.fmt_time(11 * S + MS) == "11.001 s"
    assert timeline.fmt_drift(20_000) == "drift +20000 ppm (+2 %)"
    assert timeline.fmt_drift(-50_000, "slew") == "slew -50000 ppm (-5 %)"


def test_palette_is_okabe_ito():
    """Clients take Okabe-Ito colours; vermillion is kept for violations, never a client."""
    assert set(style.CLIENT_COLOURS) <= set(style.OKABE_ITO.values())
    assert style.VIOLATION == style.OKABE_ITO["vermillion"] not in style.CLIENT_COLOURS


def test_promised_window_grows_at_each_renewal_and_never_backwards():
    """A renewal moves the window's end from its own instant on; one after a lapse reopens it; a release ends it."""
    R = timeline.Renewal
    # Renewed at 8 s, before the grant's 10 s end: one window to 18 s.
    assert timeline.promised_window(0, 10 * S, [R(8 * S, 18 * S)], None) == ((0, 18 * S),)
    # Renewed at 12 s, after the lease lapsed at 10 s: nothing between 10 s and 12 s, then a new piece.
    assert timeline.promised_window(0, 10 * S, [R(12 * S, 22 * S)], None) == ((0, 10 * S), (12 * S, 22 * S))
    # The latest renewal rules, even a shorter one; a release cuts the window for good.
    assert timeline.promised_window(0, 10 * S, [R(2 * S, 30 * S), R(4 * S, 5 * S)], None) == ((0, 5 * S),)
    assert timeline.promised_window(0, 10 * S, [R(8 * S, 18 * S), R(15 * S, 25 * S)], 12 * S) == ((0, 12 * S),)
    # A promise that never ends; and a grant already over when it was made (expired at grant): no window at all.
    assert timeline.promised_window(0, None, [], None) == ((0, None),)
    assert timeline.promised_window(5 * S, 5 * S, [], None) == ()


def test_belief_carries_its_renewals_and_extended_window(redlock_extend_path):
    """c1's renewal at 5.001 s is matched to its promise (14.898 s): the window runs from the grant to there."""
    c1, c2 = timeline.belief_intervals(load(redlock_extend_path))
    assert c1.renewals == (timeline.Renewal(5001 * MS, 14_898 * MS),)
    assert (c1.promised_end_ns, c1.window, c1.window_end_ns) == (9898 * MS, ((MS, 14_898 * MS),), 14_898 * MS)
    assert (c1.end_ns, c1.end_reason) == (14_898 * MS, "validity-check")
    # The picture's point: c2 is granted inside c1's extended window, after the grant's own promise ran out.
    assert c1.promised_end_ns < c2.start_ns < c1.window_end_ns
    assert c2.renewals == () and c2.window == ((14_101 * MS, 15_101 * MS),)


def test_renewals_without_their_promise_line_never_end():
    """An extend line whose promise line is missing reads like a grant without one: the window has no known end."""
    trace = parse_lines([header(ONE_NODE, ["r1"]), grant(0, 1, "c1", "aa"),
                         line(2 * S, "extend", session=1, client="c1", clock="wall"), line(9 * S, "end"),
                         line(0, "promise", session=1, client="c1", promised_end=3 * S, **{"from": "grant"})])
    b = timeline.belief_intervals(trace)[0]
    assert b.renewals == (timeline.Renewal(2 * S, None),) and b.window == ((0, None),)


def test_expired_at_grant_and_failed_renewals():
    """A grant whose promise ends at its own instant is expired at grant; extend requests that failed are listed."""
    trace = parse_lines([
        header(ONE_NODE, ["r1"]), grant(1 * S, 1, "c1", "aa"), grant(2 * S, 2, "c2", "bb"),
        line(3 * S, "invoke", client="c2", op=7, kind="extend"),
        line(3 * S + MS, "complete", client="c2", op=7, kind="extend", outcome="fail"),
        line(4 * S, "complete", client="c2", op=8, kind="extend", outcome="ok"),
        line(5 * S, "complete", client="c2", op=9, kind="acquire", outcome="fail"),
        line(9 * S, "end"),
        line(1 * S, "promise", session=1, client="c1", promised_end=1 * S, **{"from": "grant"}),
        line(2 * S, "promise", session=2, client="c2", promised_end=12 * S, **{"from": "grant"}),
    ])
    b1, b2 = timeline.belief_intervals(trace)
    assert (b1.expired_at_grant, b2.expired_at_grant) == (True, False)
    assert b1.window == () and b1.window_end_ns == 1 * S
    assert [(c.t, c.client, c.op) for c in timeline.failed_renewals(trace)] == [(3 * S + MS, "c2", 7)]


def test_failed_attempts_group_into_bursts(redlock_extend_path):
    """On r4 and r5, c2's 11 failed attempts 100 ms apart are one burst when gaps up to 100 ms merge, not 50 ms."""
    holds = timeline.hold_intervals(load(redlock_extend_path))
    groups = timeline.group_failed_attempts(holds, gap_ns=100 * MS)
    summary = [(g[0].node, g[0].client, g[0].session, len(g), g[0].start_ns, g[-1].end_ns, timeline.reasons_text(g))
               for g in groups]
    assert summary == [
        ("r1", "c1", 1, 1, MS // 2, 14_898 * MS + MS // 2, "deleted"),
        ("r2", "c1", 1, 1, MS // 2, 14_898 * MS + MS // 2, "deleted"),
        ("r3", "c1", 1, 1, MS // 2, 14_001 * MS, "expired"),
        ("r3", "c2", 2, 1, 14_100 * MS + MS // 2, 15_101 * MS + MS // 2, "deleted"),
        ("r4", "c2", None, 11, 13 * S + MS // 2, 14 * S + 3 * MS // 2, "deleted"),
        ("r4", "c2", 2, 1, 14_100 * MS + MS // 2, 15_101 * MS + MS // 2, "deleted"),
        ("r5", "c2", None, 11, 13 * S + MS // 2, 14 * S + 3 * MS // 2, "deleted"),
        ("r5", "c2", 2, 1, 14_100 * MS + MS // 2, 15_101 * MS + MS // 2, "deleted"),
    ]
    assert len(timeline.group_failed_attempts(holds, gap_ns=50 * MS)) == 6 + 2 * 11


def test_reasons_text_summarises_a_burst():
    """One reason reads as itself; a mix is counted; a value still held at the end adds no reason."""
    def hold(reason):
        return timeline.Hold("r1", "lock", "aa", 0, 1, reason, "c1", None)
    assert timeline.reasons_text([hold("deleted")]) == "deleted"
    assert timeline.reasons_text([hold("deleted")] * 3) == "deleted"
    assert timeline.reasons_text([hold("deleted"), hold("expired"), hold("deleted")]) == "deleted ×2 · expired ×1"
    assert timeline.reasons_text([hold("deleted"), hold(None)]) == "deleted ×1"
    assert timeline.reasons_text([hold(None)]) is None


def test_slew_intervals(redlock_extend_path, every_path):
    """A slew lasts until the clock-drift that puts the rate back (or the run's end); its note is the slewed rate."""
    assert timeline.slew_intervals(load(redlock_extend_path)) == [timeline.Span("r3", 6 * S, 8 * S, "500000")]
    assert timeline.slew_intervals(load(every_path)) == [timeline.Span("r3", 4 * S, 4500 * MS, "-50000")]
    trace = parse_lines([header(ONE_NODE, ["r1"]), line(1 * S, "fault", fault="clock-slew", target="r1", amount=7),
                         line(9 * S, "end")])
    assert timeline.slew_intervals(trace) == [timeline.Span("r1", 1 * S, 9 * S, "7")]


# --- the picture ---------------------------------------------------------------------


def _violation_xs(fig) -> list[float]:
    ax = fig.axes[0]
    return sorted(l.get_xdata()[0] for l in ax.lines if l.get_color() == style.VIOLATION and len(l.get_xdata()) == 2)


def test_verdict_lines_are_drawn_at_first_witnesses(gc_path, gc_verdicts):
    """With verdicts, each violated property gets a red line at its first witness; without, none."""
    trace = load(gc_path)
    variant, verdicts = load_verdicts(gc_verdicts, "base")
    with style.context():
        judged = timeline.draw(trace, verdicts=verdicts, variant=variant)
        plain = timeline.draw(trace)
    assert _violation_xs(judged) == pytest.approx([11.001, 15.0025, 15.0025, 25.0])
    assert _violation_xs(plain) == []
    texts = [t.get_text() for t in judged.axes[0].texts]
    assert "P2" in texts and "P3 P4" in texts and "P5" in texts and "P1" not in " ".join(texts)


def test_lanes_for_clients_nodes_and_resource(redlock_path):
    """Five nodes get five lanes between the clients and the resource, then the network."""
    with style.context():
        fig = timeline.draw(load(redlock_path))
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ys = list(fig.axes[0].get_yticks())
    assert labels == ["c1", "c2", "A", "B", "C", "D", "E", "resource", "network"]
    assert ys == sorted(ys, reverse=True)  # in that order from the top down


def test_window_sets_the_x_range(gc_path):
    """--from/--to choose the seconds shown (with a small margin)."""
    with style.context():
        fig = timeline.draw(load(gc_path), window=(10.0, 12.0))
    lo, hi = fig.axes[0].get_xlim()
    assert 9.9 < lo < 10.0 and 12.0 < hi < 12.1
    with pytest.raises(ValueError):
        timeline.draw(load(gc_path), window=(3.0, 2.0))


def test_cli_writes_png_and_svg(gc_path, tmp_path, run_cli):
    """One run writes every --out: a real, non-blank PNG and an SVG whose text names every lane."""
    png, svg = tmp_path / "timeline.png", tmp_path / "sub" / "timeline.svg"
    result = run_cli(gc_path, "--out", png, "--out", svg)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 30_000
    pixels = matplotlib.image.imread(png)
    assert pixels.shape[1] > 1500 and pixels.shape[0] > 600 and pixels[..., :3].std() > 0.05
    text = svg.read_text(encoding="utf-8")
    assert svg.stat().st_size > 10_000
    for lane in ("c1", "c2", "r1", "resource"):
        assert f">{lane}</text>" in text, lane
    assert "single_node_gc_pause" in text and "session 1" in text and "paused 15 s" in text


def test_cli_marks_violations_from_a_verdicts_file(gc_path, gc_verdicts, tmp_path, run_cli):
    """--verdicts/--variant put the property ids and witness texts into the picture."""
    svg = tmp_path / "t.svg"
    result = run_cli(gc_path, "--out", svg, "--verdicts", gc_verdicts, "--variant", "base", "--title", "GC pause")
    assert result.returncode == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    assert ">GC pause</text>" in text and ">P2</text>" in text and ">P3 P4</text>" in text
    assert "c2 (session 2) granted at 11.001s" in text
    fenced = tmp_path / "fenced.svg"
    assert run_cli(gc_path, "--out", fenced, "--verdicts", gc_verdicts, "--variant", "fenced").returncode == 0
    text = fenced.read_text(encoding="utf-8")
    assert ">P2</text>" in text and ">P3 P4</text>" not in text


def test_cli_draws_five_nodes(redlock_path, tmp_path, run_cli):
    """The five-node story draws, with a lane label for every node."""
    svg = tmp_path / "redlock.svg"
    result = run_cli(redlock_path, "--out", svg, "--from", "0", "--to", "6")
    assert result.returncode == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    for lane in ("A", "B", "C", "D", "E", "network"):
        assert f">{lane}</text>" in text, lane
    assert "wall clock +15 s" in text


def test_extended_window_ticks_and_bursts_are_drawn(redlock_extend_path):
    """c1's window is drawn as the grant's part plus the part its renewal added, with a tick at 5.001 s; r4's burst
    of failed attempts is one bar; the slew on r3 is a line from 6 s to 8 s."""
    with style.context():
        fig = timeline.draw(load(redlock_extend_path))
    ax = fig.axes[0]
    c1_y = next(y for y, t in zip(ax.get_yticks(), ax.get_yticklabels()) if t.get_text() == "c1")
    windows = sorted((round(p.get_x(), 3), round(p.get_x() + p.get_width(), 3), p.get_hatch())
                     for p in ax.patches if p.get_hatch() in ("////", EXTENDED_HATCH)
                     and abs(p.get_y() + p.get_height() / 2 - c1_y) < 1e-9)
    assert windows == [(0.001, 9.898, "////"), (9.898, 14.898, EXTENDED_HATCH)]
    ticks = [l.get_xdata()[0] for l in ax.lines if l.get_marker() == 3 and l.get_color() == "black"]
    assert ticks == pytest.approx([5.001])
    bursts = [p for p in ax.patches if p.get_hatch() == "...."]
    assert len(bursts) == 2  # r4 and r5, one bar each
    assert any(list(l.get_xdata()) == pytest.approx([6.0, 8.0]) for l in ax.lines)
    texts = [t.get_text() for t in ax.texts]
    assert "c2 · 11 failed attempts" in texts and "slew +500000 ppm (+50 %) for 2 s" in texts
    assert "session 1 · renewed ×1" in texts
    assert not any(t.startswith("drift ") for t in texts), "a slew's end is not a separate drift"


def test_every_node_lane_says_whose_value_and_why_it_went(redlock_extend_path, redlock_extend_verdicts, tmp_path,
                                                           run_cli):
    """Five nodes r1..r5 in service order; each lane names the session whose value it holds and the reason it went."""
    svg = tmp_path / "redlock.svg"
    result = run_cli(redlock_extend_path, "--out", svg, "--verdicts", redlock_extend_verdicts)
    assert result.returncode == 0, result.stderr
    trace = load(redlock_extend_path)
    with style.context():
        fig = timeline.draw(trace)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["c1", "c2", "r1", "r2", "r3", "r4", "r5", "resource", "network"]
    lane_y = dict(zip(labels, ax.get_yticks()))
    by_lane: dict[str, set[str]] = {}
    for t in ax.texts:
        for name in ("r1", "r2", "r3", "r4", "r5"):
            if abs(t.get_position()[1] - lane_y[name]) < 0.5:
                by_lane.setdefault(name, set()).add(t.get_text())
    assert {"c1 · session 1", "deleted"} <= by_lane["r1"] and {"c1 · session 1", "deleted"} <= by_lane["r2"]
    assert {"c1 · session 1", "expired", "c2 · session 2", "deleted"} <= by_lane["r3"]
    for node in ("r4", "r5"):
        assert {"c2 · 11 failed attempts", "c2 · session 2", "deleted"} <= by_lane[node]
    text = svg.read_text(encoding="utf-8")
    assert ">P1 P2 P3 P4</text>" in text and "extended at 5.001s" in text


def test_expired_grant_is_labelled_in_red():
    """A session whose lease was over when acquire returned says so on its label, in the violation colour."""
    trace = parse_lines([header(ONE_NODE, ["r1"]), grant(1 * S, 1, "c1", "aa"), line(3 * S, "end"),
                         line(1 * S, "promise", session=1, client="c1", promised_end=1 * S, **{"from": "grant"})])
    with style.context():
        fig = timeline.draw(trace)
    label = next(t for t in fig.axes[0].texts if t.get_text().startswith("session 1"))
    assert label.get_text() == "session 1 · expired at grant" and label.get_color() == style.VIOLATION


@pytest.mark.parametrize("make_args, message", [
    (lambda d, gc, v: [d / "missing.jsonl", "--out", d / "x.png"], "missing.jsonl: cannot read"),
    (lambda d, gc, v: [v, "--out", d / "x.png"], "not a locksim trace"),
    (lambda d, gc, v: [gc, "--out", d / "x.pdf"], "unsupported output type"),
    (lambda d, gc, v: [gc, "--out", d / "x.png", "--verdicts", v], "choose one with --variant"),
    (lambda d, gc, v: [gc, "--out", d / "x.png", "--verdicts", v, "--variant", "nope"], "no variant 'nope'"),
    (lambda d, gc, v: [gc, "--out", d / "x.png", "--from", "5", "--to", "1"], "must be after --from"),
    (lambda d, gc, v: [gc], "--out"),
])
def test_cli_bad_input_exits_2_with_one_line(make_args, message, gc_path, gc_verdicts, tmp_path, run_cli):
    """Missing or malformed input and bad options: exit 2, one line on stderr, no output file."""
    result = run_cli(*make_args(tmp_path, gc_path, gc_verdicts))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("timeline: ")
    assert message in result.stderr
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "x.pdf").exists()


# --- replication, Sentinel and services --------------------------------------------------

REPLICATED = [("M", "redis"), ("R", "redis"), ("c1", "client"), ("c2", "client"), ("s1", "sentinel")]


def _texts_by_lane(fig) -> dict[str, list]:
    """Each lane's texts (by the lane's axis label), from the axes' text artists within half a lane of its centre."""
    ax = fig.axes[0]
    lanes = [(t.get_text(), y) for t, y in zip(ax.get_yticklabels(), ax.get_yticks())]
    out: dict[str, list] = {name: [] for name, _ in lanes}
    for t in ax.texts:
        if t.get_transform() is not ax.transData:
            continue
        y = t.get_position()[1]
        for name, lane_y in lanes:
            if lane_y - 0.5 <= y < lane_y + 0.5:
                out[name].append(t)
    return out


def _lane_labels(fig) -> list[str]:
    return [t.get_text() for t in fig.axes[0].get_yticklabels()]


def _legend_texts(fig) -> list[str]:
    return [t.get_text() for t in fig.legends[0].get_texts()]


def _overlapping_labels(fig) -> list[tuple[str, str]]:
    """Pairs of texts on the axes whose drawn boxes overlap (more than a pixel)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in fig.axes[0].texts if t.get_text()]
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1].x0 < b[1].x1 - 1 and b[1].x0 < a[1].x1 - 1 and a[1].y0 < b[1].y1 - 1 and b[1].y0 < a[1].y1 - 1]


def test_loader_reads_replicated_and_role_lines(failover_path, replicated_path, oversell_path):
    """replicated and role lines become records; sentinels and services are named by the header."""
    trace = load(replicated_path)
    assert trace.of(Replicated) == [Replicated(12 * MS, "R", "lock", "5f3a9c2e7b104d81", True, 1)]
    assert trace.of(Role) == [Role(2161 * MS, "R", "master", None, 1)]
    assert (trace.clients, trace.nodes, trace.sentinels, trace.services) == (
        ["c1", "c2"], ["M", "R"], ["s1", "s2", "s3"], [])
    assert {"replicated", "role"} <= set(trace.frames())
    assert list(trace.frame("role")["node"]) == ["R"]
    assert load(oversell_path).services == ["identity"]
    # Heartbeats (pings, acks, the sentinels' hellos) go on to 20 s; the last activity is c1's release.
    trace = load(failover_path)
    assert trace.end_ns == 20 * S and trace.activity_end_ns == 8004 * MS


def test_loader_checks_role_lines():
    """A role other than master/replica, or a replica without its master, is refused with source:line."""
    with pytest.raises(TraceError, match=r'^<t>:2: "role" field "role" should be master or replica'):
        parse_lines([header(REPLICATED, ["M", "R"]), line(1, "role", node="R", role="leader", epoch=1)], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "role" line of a replica lacks "master"$'):
        parse_lines([header(REPLICATED, ["M", "R"]), line(1, "role", node="M", role="replica", epoch=1)], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "replicated" field "present" should be bool'):
        parse_lines([header(REPLICATED, ["M", "R"]), line(1, "replicated", node="R", key="lock", value="aa",
                                                          present=1, offset=1)], source="<t>")


def test_initial_roles_from_what_nodes_do(failover_path, split_brain_path, oversell_path, gc_path):
    """A node's first role is what it did before any role line; unreplicated runs have no roles at all."""
    assert timeline.initial_roles(load(failover_path)) == {"M": "master", "R": "replica"}
    assert timeline.initial_roles(load(split_brain_path)) == {"M": "master", "R": "replica"}
    assert timeline.initial_roles(load(oversell_path)) == {}
    assert timeline.initial_roles(load(gc_path)) == {}
    # Without evidence: promoted means it was a replica; demoted (dropping keys) means a master; else header order.
    trace = parse_lines([header(REPLICATED, ["M", "R"]), line(1 * S, "role", node="M", role="replica", master="R",
                                                              epoch=1),
                         line(2 * S, "role", node="R", role="master", epoch=1)])
    assert timeline.initial_roles(trace) == {"M": "master", "R": "replica"}
    trace = parse_lines([header(REPLICATED, ["R", "M"]), line(1 * S, "role", node="R", role="master", epoch=1),
                         line(1 * S, "key-dropped", node="M", key="lock", value="aa", reason="demoted"),
                         line(1 * S, "role", node="M", role="replica", master="R", epoch=1)])
    assert timeline.initial_roles(trace) == {"R": "replica", "M": "master"}
    # Messages tell too: a replica acks, a master answers PONG (master).
    trace = parse_lines([header(REPLICATED, ["M", "R"]),
                         line(0, "send", **{"from": "R", "to": "M", "msg": "REPLCONF ACK 0"}),
                         line(1, "send", **{"from": "M", "to": "s1", "msg": "PONG (master)"})])
    assert timeline.initial_roles(trace) == {"M": "master", "R": "replica"}


def test_role_changes_know_the_role_before(failover_path, split_brain_path):
    """Each role line with the role it replaced: R's promotion; in the split brain M's demotion after the heal."""
    changes = timeline.role_changes(load(failover_path))
    assert changes == [timeline.RoleChange(1161 * MS, "R", "master", None, 1, "replica")]
    assert changes[0].promotion and changes[0].text == "promoted to master, epoch 1"
    promoted, demoted = timeline.role_changes(load(split_brain_path))
    assert (promoted.t, promoted.node, promoted.text) == (2111 * MS, "R", "promoted to master, epoch 1")
    assert (demoted.t, demoted.node, demoted.before, demoted.promotion) == (12_101 * MS, "M", "master", False)
    assert demoted.text == "demoted: replica of R, epoch 1"
    assert timeline.RoleChange(0, "R", "replica", "M2", 2, "replica").text == "now replica of M2, epoch 2"


def test_replica_copies_show_lag_and_what_a_promotion_inherits(failover_path, replicated_path, split_brain_path):
    """R never got c1's key when M crashed at once; with the crash at 1 s R's copy arrives 11 ms after M's hold
    began and lasts until R's promotion; after the split brain M holds a snapshot copy of c2's value."""
    assert timeline.replica_copies(load(failover_path)) == []
    (copy,) = timeline.replica_copies(load(replicated_path))
    assert (copy.node, copy.client, copy.session, copy.start_ns, copy.end_ns, copy.reason, copy.via, copy.lag_ns) == (
        "R", "c1", 1, 12 * MS, 2161 * MS, "promoted", "stream", 11 * MS)
    holds = timeline.hold_intervals(load(replicated_path))
    assert [(h.node, h.client, h.start_ns, h.reason) for h in holds if h.client == "c1"] == [
        ("M", "c1", MS, "lost-in-crash"), ("R", "c1", 2161 * MS, "deleted")]  # the copy became R's own hold
    (copy,) = timeline.replica_copies(load(split_brain_path))
    assert (copy.node, copy.client, copy.start_ns, copy.end_ns, copy.reason, copy.via, copy.lag_ns) == (
        "M", "c2", 12_103 * MS, 12_504 * MS, "deleted", "resync", None)


def test_replica_copy_ends():
    """A copy ends at a different value (overwritten), a full resync's flush, a crash of the replica, or the run's
    end; a copy of a value a master never recorded has no lag."""
    def repl(t, value, present, offset, frm="M", to="R", text=None):
        return [line(t, "deliver", **{"from": frm, "to": to, "msg": text or f"repl SET lock {value} @{offset}"}),
                line(t, "replicated", node=to, key="lock", value=value, present=present, offset=offset)]
    trace = parse_lines([
        header(REPLICATED, ["M", "R"]),
        line(0, "key-held", node="M", key="lock", value="aa"),
        *repl(10, "aa", True, 1),
        line(1 * S, "key-held", node="M", key="lock", value="bb"),
        *repl(1 * S + 10, "aa", False, 2), *repl(1 * S + 10, "bb", True, 2),
        *repl(2 * S, "bb", False, 3, text="repl FLUSHALL (full resync) @3"),
        *repl(2 * S, "cc", True, 3),  # from the snapshot: no lag
        line(3 * S, "fault", fault="crash", target="R", amount=-1),
        *repl(4 * S, "dd", True, 4),
        line(5 * S, "end"),
    ])
    copies = [(c.value, c.start_ns, c.end_ns, c.reason, c.via, c.lag_ns) for c in timeline.replica_copies(trace)]
    assert copies == [("aa", 10, 1 * S + 10, "overwritten", "stream", 10),
                      ("bb", 1 * S + 10, 2 * S, "full resync", "stream", 10),
                      ("cc", 2 * S, 3 * S, "lost-in-crash", "resync", None),
                      ("dd", 4 * S, 5 * S, None, "stream", None)]


def test_sentinel_events_in_the_failover(failover_path):
    """Each sentinel's view: its first SDOWN ask, the leader's vote request, the votes, the promotion order and each
    +switch-master once (the hellos that repeat it every 2 s are not events)."""
    events = [(e.t, e.sentinel, e.kind, e.text) for e in timeline.sentinel_events(load(failover_path))]
    assert events == [
        (1040 * MS, "s2", "sdown", "M down (SDOWN)"),
        (1070 * MS, "s3", "sdown", "M down (SDOWN)"),
        (1110 * MS, "s1", "sdown", "M down (SDOWN)"),
        (1150 * MS, "s3", "ask-votes", "failover, epoch 1: asks votes"),
        (1151 * MS, "s1", "vote", "votes s3, epoch 1"),
        (1151 * MS, "s2", "vote", "votes s3, epoch 1"),
        (1160 * MS, "s3", "promote", "REPLICAOF NO ONE → R"),
        (1202 * MS, "s3", "switch", "+switch-master M → R"),
        (1203 * MS, "s1", "switch", "+switch-master M → R"),
        (1203 * MS, "s2", "switch", "+switch-master M → R"),
    ]


def test_sentinel_events_in_the_split_brain(split_brain_path):
    """After the heal every sentinel orders the old master to follow R: one reconfigure event each."""
    events = timeline.sentinel_events(load(split_brain_path))
    assert [(e.sentinel, e.kind) for e in events if e.t < 3 * S] == [
        ("s1", "sdown"), ("s2", "sdown"), ("s3", "sdown"), ("s2", "ask-votes"), ("s1", "vote"), ("s3", "vote"),
        ("s2", "promote"), ("s2", "switch"), ("s1", "switch"), ("s3", "switch")]
    late = [(e.t, e.sentinel, e.text) for e in events if e.t >= 3 * S]
    assert late == [(12_100 * MS, "s1", "REPLICAOF R → M"), (12_110 * MS, "s2", "REPLICAOF R → M"),
                    (12_120 * MS, "s3", "REPLICAOF R → M")]


def test_service_calls_wait_out_the_pause(oversell_path):
    """The three buyers' calls reach identity only when its 30 s pause ends and are answered together."""
    calls = timeline.service_calls(load(oversell_path))
    assert [(c.service, c.client, c.called_ns, c.arrived_ns, c.answered_ns, c.received_ns) for c in calls] == [
        ("identity", "c1", 2 * MS, 30 * S, 30_005 * MS, 30_006 * MS),
        ("identity", "c2", 10_122 * MS, 30 * S, 30_005 * MS, 30_006 * MS),
        ("identity", "c3", 20_242 * MS, 30 * S, 30_005 * MS, 30_006 * MS)]
    assert timeline.pause_intervals(load(oversell_path)) == [timeline.Span("identity", 0, 30 * S)]


def test_holds_in_the_incident_and_the_split_brain(oversell_path, split_brain_path):
    """c1's plain DEL deletes c3's lock (by c1); the demoted M drops c1's key with reason demoted."""
    holds = timeline.hold_intervals(load(oversell_path))
    assert [(h.client, h.start_ns, h.end_ns, h.reason, h.by) for h in holds] == [
        ("c1", MS, 10_002 * MS, "expired", None), ("c2", 10_121 * MS, 20_122 * MS, "expired", None),
        ("c3", 20_241 * MS, 30_011 * MS, "deleted", "c1")]
    holds = timeline.hold_intervals(load(split_brain_path))
    assert [(h.node, h.client, h.start_ns, h.end_ns, h.reason, h.by) for h in holds] == [
        ("M", "c1", 3001 * MS, 12_101 * MS, "demoted", None), ("R", "c2", 3001 * MS, 12_503 * MS, "deleted", "c2")]


def test_stock_ops_at_one_instant_share_a_label(oversell_path):
    """The buyers' six ops within 3 ms are one cluster; its label reads in time order, each sale with its buyer."""
    pairs = timeline.ops_with_state(load(oversell_path))
    (cluster,) = timeline.op_clusters(pairs, gap_ns=10 * MS)
    assert len(cluster) == 6
    assert timeline.cluster_lines(cluster) == [("read stock 1 ×3 (c1, c2, c3)", False),
                                               ("c1 decrement stock 0", False), ("c2 decrement stock -1", False),
                                               ("c3 decrement stock -2", False)]
    # The reads share an instant, so do the decrements: two clusters when 2 ms apart is too far.
    assert [len(c) for c in timeline.op_clusters(pairs, gap_ns=MS // 2)] == [3, 3]


def test_cluster_lines_name_refusals_and_stay_short():
    """A refusal is its own red line; ops alike collapse; past the limit the middle gives way to an ellipsis."""
    def op(t, client, name, accepted=True, reject="none"):
        return Op(t, 1, client, name, accepted, reject, -1)
    cluster = [(op(0, "c1", "write"), None), (op(1, "c2", "write"), None),
               (op(2, "c3", "write", False, "stale-token"), None), (op(3, "c4", "read"), None)]
    assert timeline.cluster_lines(cluster) == [("write ×2 (c1, c2)", False), ("c3 write ✗ stale-token", True),
                                               ("c4 read", False)]
    many = [(op(i, f"c{i}", f"op{i}"), None) for i in range(6)]
    assert [text for text, _ in timeline.cluster_lines(many)] == ["c0 op0", "…", "c4 op4", "c5 op5"]


def test_message_bursts(failover_path):
    """Pings to the dead M are runs of drops: with a 300 ms gap one burst from the first drop to the last."""
    trace = load(failover_path)
    (burst,) = timeline.message_bursts(trace, gap_ns=300 * MS)
    kind, msgs = burst
    dropped = [m for m in trace.of(Message) if m.type == "drop-crashed"]
    assert kind == "dropped" and msgs == dropped and {m.receiver for m in msgs} == {"M"}
    assert len(timeline.message_bursts(trace, gap_ns=10 * MS)) > 100


def test_failover_lanes_roles_and_promotion(failover_path):
    """Redis lanes say each node's first role; R's lane marks its promotion (and that it had no copy of the lock);
    a dashed line crosses the Redis and sentinel lanes there; no empty resource lane."""
    with style.context():
        fig = timeline.draw(load(failover_path))
    assert _lane_labels(fig) == ["c1", "c2", "M (master)", "R (replica)", "s1", "s2", "s3", "network"]
    ax = fig.axes[0]
    lane_y = dict(zip(_lane_labels(fig), ax.get_yticks()))
    dashed = [l for l in ax.lines if l.get_color() == style.ROLE and len(l.get_xdata()) == 2
              and l.get_xdata()[0] == l.get_xdata()[1]]
    assert len(dashed) == 1 and dashed[0].get_xdata()[0] == pytest.approx(1.161)
    assert sorted(dashed[0].get_ydata()) == pytest.approx([lane_y["s3"] - 0.5, lane_y["M (master)"] + 0.5])
    by_lane = {k: {t.get_text() for t in v} for k, v in _texts_by_lane(fig).items()}
    assert "promoted to master, epoch 1 · had no copy of the lock" in by_lane["R (replica)"]
    assert {"c1 · session 1", "lost-in-crash"} <= by_lane["M (master)"]
    assert {"c2 · session 2", "deleted"} <= by_lane["R (replica)"]
    assert {"M down (SDOWN) · failover, epoch 1: asks votes", "REPLICAOF NO ONE → R · +switch-master M → R"} \
        <= by_lane["s3"]
    assert {"M down (SDOWN) · votes s3, epoch 1", "+switch-master M → R"} <= by_lane["s1"]
    assert any(t.startswith("131 dropped → M (down)") for t in by_lane["network"])
    legend = _legend_texts(fig)
    assert "promotion to master" in legend and "sentinel: REPLICAOF NO ONE (promote)" in legend
    # Legends only for what appears: no copies, no reconfiguration, no service calls here.
    assert "replica's copy of that client's value" not in legend and "sentinel: REPLICAOF <master>" not in legend
    assert "call to a service → its answer" not in legend and "op accepted" not in legend
    assert _violation_xs(fig) == []


def test_replica_copy_is_drawn_lighter_with_its_lag(replicated_path):
    """R's copy of c1's value is a light, dashed bar in c1's colour from 12 ms to the promotion, labelled with the
    lag; then R's own solid bar for the same session."""
    trace = load(replicated_path)
    with style.context():
        fig = timeline.draw(trace)
    ax = fig.axes[0]
    lane_y = dict(zip(_lane_labels(fig), ax.get_yticks()))
    c1 = style.client_colour(0)
    on_r = sorted(((round(p.get_x(), 3), round(p.get_x() + p.get_width(), 3), p.get_facecolor()[:3], p.get_linestyle())
                   for p in ax.patches if isinstance(p, Rectangle)
                   and abs(p.get_y() + p.get_height() / 2 - lane_y["R (replica)"]) < 1e-9 and p.get_height() < 0.5),
                  key=lambda r: r[0])
    copy, hold = on_r[0], on_r[1]
    assert (copy[0], copy[1]) == (0.012, 2.161) and (hold[0], hold[1]) == (2.161, 8.003)
    assert copy[2] == pytest.approx(matplotlib.colors.to_rgb(style.tint(c1)))
    assert hold[2] == pytest.approx(matplotlib.colors.to_rgb(c1)) and copy[3] != hold[3]
    texts = {t.get_text() for t in _texts_by_lane(fig)["R (replica)"]}
    assert {"c1 · replica copy · lag 11 ms", "promoted to master, epoch 1 · inherits c1's value",
            "c1 · session 1"} <= texts
    assert "replica's copy of that client's value" in _legend_texts(fig)


def test_split_brain_demotion_and_reconfiguration(split_brain_path, tmp_path, run_cli):
    """The old master's lane shows c1's key dropped by the demotion and M turning replica; the sentinels' lanes the
    REPLICAOF R each sent it; the PNG and SVG name every lane."""
    png, svg = tmp_path / "split.png", tmp_path / "split.svg"
    result = run_cli(split_brain_path, "--out", png, "--out", svg)
    assert result.returncode == 0, result.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text(encoding="utf-8")
    for lane in ("c1", "c2", "M (master)", "R (replica)", "s1", "s2", "s3", "network"):
        assert f">{lane}</text>" in text, lane
    for label in ("demoted: replica of R, epoch 1", "c2 · replica copy (full resync)", "REPLICAOF R → M",
                  "partition 0 (drop)", "sentinel: REPLICAOF &lt;master&gt;", "node demoted / re-pointed"):
        assert label in text, label
    with style.context():
        fig = timeline.draw(load(split_brain_path))
    m_texts = {t.get_text(): t for t in _texts_by_lane(fig)["M (master)"]}
    assert "demoted" in m_texts and "c1 · session 1" in m_texts
    markers = [l.get_marker() for l in fig.axes[0].lines if l.get_color() == style.ROLE and len(l.get_xdata()) == 1]
    assert markers.count("^") == 1 and markers.count("v") == 1


def test_incident_shows_the_stalled_service(oversell_path, tmp_path, run_cli):
    """identity gets a lane: grey for its 30 s pause, a line per buyer's call from the call to the answer at 30 s;
    r1 says c1's DEL deleted c3's lock, in red; the resource names each sale."""
    with style.context():
        fig = timeline.draw(load(oversell_path))
    assert _lane_labels(fig) == ["c1", "c2", "c3", "r1", "identity", "resource"]
    ax = fig.axes[0]
    lane_y = dict(zip(_lane_labels(fig), ax.get_yticks()))
    calls = sorted((round(l.get_xdata()[0], 3), round(l.get_xdata()[1], 3), l.get_color()) for l in ax.lines
                   if len(l.get_xdata()) == 2 and abs(l.get_ydata()[0] - lane_y["identity"]) < 0.5
                   and l.get_linewidth() > 2)
    assert calls == [(0.002, 30.005, style.client_colour(0)), (10.122, 30.005, style.client_colour(1)),
                     (20.242, 30.005, style.client_colour(2))]
    by_lane = {k: {t.get_text(): t for t in v} for k, v in _texts_by_lane(fig).items()}
    assert {"paused 30 s", "c1: answered after 30.003 s", "c3: answered after 9.763 s"} <= set(by_lane["identity"])
    assert by_lane["r1"]["deleted by c1"].get_color() == style.VIOLATION
    assert {"read stock 1 ×3 (c1, c2, c3)", "c3 decrement stock -2"} <= set(by_lane["resource"])
    assert "call to a service → its answer" in _legend_texts(fig) and "paused" in _legend_texts(fig)
    svg = tmp_path / "incident.svg"
    assert run_cli(oversell_path, "--out", svg, "--out", tmp_path / "incident.png").returncode == 0
    text = svg.read_text(encoding="utf-8")
    assert ">identity</text>" in text and "services" in text and "stock -2" in text


def test_many_sentinels_share_one_lane():
    """More than three sentinels are one lane; each label names its sentinel, and a fault on one shows there."""
    procs = [("M", "redis"), ("R", "redis"), ("c1", "client")] + [(f"s{i}", "sentinel") for i in range(1, 6)]
    trace = parse_lines([
        header(procs, ["M", "R"]),
        line(0, "key-held", node="M", key="lock", value="aa"),
        line(1 * S, "fault", fault="crash", target="s4", amount=-1),
        line(2 * S, "send", **{"from": "s1", "to": "s2", "msg": "is-master-down-by-addr M epoch 0"}),
        line(3 * S, "send", **{"from": "s5", "to": "R", "msg": "REPLICAOF NO ONE"}),
        line(3 * S + MS, "role", node="R", role="master", epoch=1),
        line(6 * S, "end"),
    ])
    with style.context():
        fig = timeline.draw(trace)
    assert _lane_labels(fig) == ["c1", "M (master)", "R (replica)", "sentinels ×5"]
    texts = {t.get_text() for t in _texts_by_lane(fig)["sentinels ×5"]}
    assert {"s1: M down (SDOWN)", "s5: REPLICAOF NO ONE → R"} <= texts
    assert any(l.get_marker() == "X" for l in fig.axes[0].lines)  # s4's crash, on the shared lane


def test_quiet_sentinels_share_one_lane():
    """Sentinels that saw nothing (a run without faults) take one lane that says so, not three empty ones."""
    procs = [("M", "redis"), ("R", "redis"), ("c1", "client")] + [(f"s{i}", "sentinel") for i in range(1, 4)]
    trace = parse_lines([
        header(procs, ["M", "R"]),
        line(0, "send", **{"from": "s1", "to": "M", "msg": "PING"}),
        line(MS, "send", **{"from": "M", "to": "s1", "msg": "PONG (master)"}),
        line(1 * S, "end"),
    ])
    with style.context():
        fig = timeline.draw(trace)
    assert _lane_labels(fig) == ["c1", "M (master)", "R (replica)", "sentinels ×3"]
    assert {t.get_text() for t in _texts_by_lane(fig)["sentinels ×3"]} == {"no master seen down, no failover"}
    assert not any(t.startswith("sentinel") for t in _legend_texts(fig))


@pytest.mark.parametrize("name", ["master_replica_failover", "master_replica_replicated", "sentinel_split_brain",
                                  "oversell_incident", "single_node_gc_pause", "redlock_clock_jump",
                                  "every_line_type", "redlock_extend_slew"])
def test_labels_never_overlap(name):
    """No two texts on the plot overlap, whatever the story (the painter leaves one out rather than overlap)."""
    with style.context():
        fig = timeline.draw(load(Path(__file__).resolve().parent / "data" / f"{name}.jsonl"))
    assert _overlapping_labels(fig) == []


def test_cli_marks_the_failover_violation(failover_path, failover_verdicts, tmp_path, run_cli):
    """With the verdicts, P1 and P2 are marked where c2 is granted on R while c1 still holds M's lost lock."""
    svg = tmp_path / "failover.svg"
    result = run_cli(failover_path, "--out", svg, "--verdicts", failover_verdicts)
    assert result.returncode == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    assert ">P1 P2</text>" in text and "granted at 1.302s on R" in text
    assert ">M (master)</text>" in text and ">R (replica)</text>" in text and "Sentinel" in text
