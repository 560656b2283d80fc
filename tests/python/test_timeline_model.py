"""What the timeline draws, without drawing: analysis/timeline_model.py and analysis/timeline_replication.py.

Beliefs, promised windows, the holder and roles are read from the judged lines (what the checkers computed); the
rest pairs facts up and reads message payloads. Nothing here may depend on a message's ``msg`` text.
"""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

from analysis import style, timeline_model as model, timeline_replication as repl
from analysis.trace import Message, Op, load, parse_lines
from tracelines import (
    MS, ONE_NODE, REPLICATED, S, belief, grant, header, judged, line, masters, message, set_request, window)

ANALYSIS = Path(__file__).resolve().parents[2] / "analysis"
DATA = Path(__file__).resolve().parent / "data"
FIXTURES = sorted(p.stem for p in DATA.glob("*.jsonl"))


# --- beliefs and windows: the judged lines, read --------------------------------------


def test_belief_intervals_in_the_gc_pause(gc_path):
    """c1 believes from its grant through the whole pause to its release; the promise ends at 10 s."""
    c1, c2 = model.belief_intervals(load(gc_path))
    assert (c1.client, c1.session, c1.start_ns, c1.end_ns, c1.end_reason) == ("c1", 1, MS, 15 * S + 3 * MS,
                                                                              "released")
    assert (c1.promised_end_ns, c1.window_end_ns) == (10 * S, 10 * S)
    assert (c2.client, c2.session, c2.start_ns, c2.end_ns, c2.end_reason) == ("c2", 2, 11 * S + MS,
                                                                              11 * S + 3 * MS, "released")
    # c2's lease would run to 21 s, but its release at 11.003 s ends the promised window (as P1 reads it).
    assert (c2.promised_end_ns, c2.window_end_ns) == (21 * S, 11 * S + 3 * MS)
    # The picture's point: c1 still believes when c2 is granted.
    assert c1.start_ns < c2.start_ns < c1.end_ns


def test_beliefs_are_the_judged_lines_verbatim():
    """Whatever the facts say, a belief is its judged line: a crash of the client (client-crash), the run's end, a
    window that never ends; nothing is re-derived from grants, releases or faults."""
    trace = parse_lines([
        header(ONE_NODE, ["r1"]),
        grant(1 * S, 1, "c1", "aa"),
        line(3 * S, "fault", fault="crash", target="c1", down_for_ns=-1, until=None),
        grant(4 * S, 2, "c2", "bb", token=7),
        line(9 * S, "end"),
        *judged(9 * S, beliefs=[belief(1, "c1", "aa", 1 * S, 3 * S, "client-crash", promised_end=11 * S),
                                belief(2, "c2", "bb", 4 * S, 9 * S, "run-end", token=7)],
                windows=[window(1, "c1", 1 * S, 11 * S, promised_end=11 * S),
                         window(2, "c2", 4 * S, None, until="open")],
                roles=masters(["r1"], 9 * S)),
    ])
    b1, b2 = model.belief_intervals(trace)
    assert (b1.end_ns, b1.end_reason, b1.window_end_ns) == (3 * S, "client-crash", 11 * S)
    assert (b2.end_ns, b2.end_reason, b2.token, b2.promised_end_ns, b2.window_end_ns) == (9 * S, "run-end", 7, None,
                                                                                         None)
    assert b2.window == (model.WindowPiece(4 * S, None, "grant"),)


def test_belief_carries_its_renewals_and_extended_window(redlock_extend_path):
    """c1's window is the grant's piece until its extension at 5.001 s, then the extension's until 14.898 s."""
    c1, c2 = model.belief_intervals(load(redlock_extend_path))
    assert c1.renewals == (5001 * MS,)
    assert c1.window == (model.WindowPiece(MS, 5001 * MS, "grant"), model.WindowPiece(5001 * MS, 14_898 * MS,
                                                                                     "extension"))
    assert (c1.promised_end_ns, c1.window_end_ns) == (9898 * MS, 14_898 * MS)
    assert (c1.end_ns, c1.end_reason) == (14_898 * MS, "validity-check")
    # The picture's point: c2 is granted inside c1's extended window, after the grant's own promise ran out.
    assert c1.promised_end_ns < c2.start_ns < c1.window_end_ns
    assert c2.renewals == () and c2.window == (model.WindowPiece(14_101 * MS, 15_101 * MS, "grant"),)


def _belief(start, promised_end, *pieces):
    return model.Belief(1, "c1", "aa", -1, start, 99 * S, "released", promised_end,
                        tuple(model.WindowPiece(*p) for p in pieces))


def test_window_bands_split_what_the_grant_promised_from_what_extensions_added():
    """Touching pieces are one stretch: the grant's until its own promise, the extensions' after; a stretch reopened
    after a lapse is all the extensions'; a window that never ends, or none at all (expired at grant)."""
    b = _belief(0, 10 * S, (0, 8 * S, "grant"), (8 * S, 18 * S, "extension"))
    assert model.window_bands(b) == [(0, 10 * S, "grant"), (10 * S, 18 * S, "extension")]
    b = _belief(0, 10 * S, (0, 10 * S, "grant"), (12 * S, 22 * S, "extension"))
    assert model.window_bands(b) == [(0, 10 * S, "grant"), (12 * S, 22 * S, "extension")]
    b = _belief(0, 10 * S, (0, 4 * S, "grant"), (4 * S, 5 * S, "extension"))  # an extension may shorten it
    assert model.window_bands(b) == [(0, 5 * S, "grant")]
    assert model.window_bands(_belief(0, None, (0, None, "grant"))) == [(0, None, "grant")]
    assert model.window_bands(_belief(0, 10 * S, (0, 2 * S, "grant"), (2 * S, None, "extension"))) == [
        (0, 10 * S, "grant"), (10 * S, None, "extension")]
    expired = _belief(5 * S, 5 * S)
    assert model.window_bands(expired) == [] and expired.expired_at_grant and expired.window_end_ns == 5 * S


def test_failed_renewals():
    """Extend requests that failed or went unanswered are listed; acquires and successful extends are not."""
    trace = parse_lines([
        header(ONE_NODE, ["r1"]),
        line(3 * S + MS, "complete", client="c2", op=7, kind="extend", outcome="fail"),
        line(4 * S, "complete", client="c2", op=8, kind="extend", outcome="ok"),
        line(4 * S + MS, "complete", client="c2", op=9, kind="extend", outcome="info"),
        line(5 * S, "complete", client="c2", op=10, kind="acquire", outcome="fail"),
    ])
    assert [(c.t, c.op) for c in model.failed_renewals(trace)] == [(3 * S + MS, 7), (4 * S + MS, 9)]


def test_the_holder_is_the_judged_one(redlock_path):
    """The service holder (a quorum of five) is read, not computed: c1's from 0.5 ms until C's key expired at
    1.1 s (A and B alone are no quorum), c2's from 2.0005 s."""
    holders = model.holder_intervals(load(redlock_path))
    assert [(h.start, h.end, h.client, h.session) for h in holders] == [
        (MS // 2, 1100 * MS, "c1", 1), (2000 * MS + MS // 2, 5000 * MS + MS // 2, "c2", 2)]


# --- holds on the nodes --------------------------------------------------------------------


def test_hold_intervals_in_the_gc_pause(gc_path):
    """r1 holds c1's value until it expires at 10.0005 s, then c2's until c2 deletes it."""
    holds = model.hold_intervals(load(gc_path))
    assert [(h.node, h.client, h.session, h.start_ns, h.end_ns, h.reason) for h in holds] == [
        ("r1", "c1", 1, MS // 2, 10 * S + MS // 2, "expired"),
        ("r1", "c2", 2, 11 * S + MS // 2, 11 * S + 7 * MS // 2, "deleted"),
    ]


def test_hold_intervals_on_five_nodes(redlock_path):
    """After C's clock jump, C drops c1's value and takes c2's: each node's stretches and owners."""
    by_node = {}
    for h in model.hold_intervals(load(redlock_path)):
        by_node.setdefault(h.node, []).append((h.client, h.start_ns, h.end_ns, h.reason))
    assert by_node == {
        "A": [("c1", MS // 2, 4 * S + 3 * MS // 2, "deleted")],
        "B": [("c1", MS // 2, 4 * S + 3 * MS // 2, "deleted")],
        "C": [("c1", MS // 2, 1100 * MS, "expired"), ("c2", 2 * S + MS // 2, 5 * S + MS // 2, "deleted")],
        "D": [("c2", 2 * S + MS // 2, 5 * S + MS // 2, "deleted")],
        "E": [("c2", 2 * S + MS // 2, 5 * S + MS // 2, "deleted")],
    }


def test_hold_intervals_renewal_overwrite_and_ungranted_values():
    """A renewal continues a stretch, a new value ends it as overwritten, an ungranted value is traced to the SET
    that carried it (its payload's value)."""
    trace = parse_lines([
        header(ONE_NODE, ["r1"]),
        set_request(0, "c1", "r1", "aa"),
        line(1, "key-held", node="r1", key="lock", value="aa"),
        grant(2, 1, "c1", "aa"),
        line(5 * S, "key-held", node="r1", key="lock", value="aa"),  # renewed: same stretch
        set_request(6 * S, "c2", "r1", "bb", nx=False),
        line(6 * S + 1, "key-held", node="r1", key="lock", value="bb"),
        line(8 * S, "key-dropped", node="r1", key="nope", value="zz", reason="deleted"),  # nothing open: ignored
        line(9 * S, "end"),
    ])
    holds = model.hold_intervals(trace)
    assert [(h.value, h.start_ns, h.end_ns, h.reason, h.client, h.session) for h in holds] == [
        ("aa", 1, 6 * S + 1, "overwritten", "c1", 1),
        ("bb", 6 * S + 1, 9 * S, None, "c2", None),
    ]


def test_holds_in_the_incident_and_the_split_brain(oversell_path, split_brain_path):
    """c1's plain DEL deletes c3's lock (by c1); the demoted M drops c1's key with reason demoted."""
    holds = model.hold_intervals(load(oversell_path))
    assert [(h.client, h.start_ns, h.end_ns, h.reason, h.by) for h in holds] == [
        ("c1", MS, 10_002 * MS, "expired", None), ("c2", 10_121 * MS, 20_122 * MS, "expired", None),
        ("c3", 20_241 * MS, 30_011 * MS, "deleted", "c1")]
    holds = model.hold_intervals(load(split_brain_path))
    assert [(h.node, h.client, h.start_ns, h.end_ns, h.reason, h.by) for h in holds] == [
        ("M", "c1", 3001 * MS, 12_101 * MS, "demoted", None), ("R", "c2", 3001 * MS, 12_503 * MS, "deleted", "c2")]


def test_failed_attempts_group_into_bursts(redlock_extend_path):
    """On r4 and r5, c2's 11 failed attempts 100 ms apart are one burst when gaps up to 100 ms merge, not 50 ms."""
    holds = model.hold_intervals(load(redlock_extend_path))
    groups = model.group_failed_attempts(holds, gap_ns=100 * MS)
    summary = [(g[0].node, g[0].client, g[0].session, len(g), g[0].start_ns, g[-1].end_ns, model.reasons_text(g))
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
    assert len(model.group_failed_attempts(holds, gap_ns=50 * MS)) == 6 + 2 * 11


def test_reasons_text_summarises_a_burst():
    """One reason reads as itself; a mix is counted; a value still held at the end adds no reason."""
    def hold(reason):
        return model.Hold("r1", "lock", "aa", 0, 1, reason, "c1", None)
    assert model.reasons_text([hold("deleted")]) == "deleted"
    assert model.reasons_text([hold("deleted")] * 3) == "deleted"
    assert model.reasons_text([hold("deleted"), hold("expired"), hold("deleted")]) == "deleted ×2 · expired ×1"
    assert model.reasons_text([hold("deleted"), hold(None)]) == "deleted ×1"
    assert model.reasons_text([hold(None)]) is None


# --- faults, ops, formatting ------------------------------------------------------------------


def test_pause_intervals(gc_path, every_path):
    """Pauses run to their resume; a pause inside a pause does not split it; a crash or the plan ends one."""
    assert model.pause_intervals(load(gc_path)) == [model.Span("c1", 2 * MS, 15 * S + 2 * MS)]
    assert [(s.what, s.start_ns, s.end_ns) for s in model.pause_intervals(load(every_path))] == [
        ("c1", 100 * MS, 1100 * MS)]
    trace = parse_lines([
        header(ONE_NODE, ["r1"]),
        line(1 * S, "fault", fault="pause", target="c1", length_ns=2 * S, until=3 * S),
        line(1 * S, "fault", fault="pause", target="c2", length_ns=5 * S, until=6 * S),
        line(2 * S, "fault", fault="crash", target="c2", down_for_ns=-1, until=None),
        line(2 * S, "span", span="paused", target="c2", start=1 * S, ended="crashed"),
        line(3 * S, "fault", fault="resume", target="c1"),
        line(3 * S, "span", span="paused", target="c1", start=1 * S, ended="resumed"),
        line(8 * S, "fault", fault="pause", target="c1", length_ns=5 * S, until=13 * S),
        line(9 * S, "span", span="paused", target="c1", start=8 * S, ended="run-ended"),
        line(9 * S, "span", span="down", target="c2", start=2 * S, ended="run-ended"),
        line(9 * S, "end"),
    ])
    assert [(s.what, s.start_ns, s.end_ns, s.note) for s in model.pause_intervals(trace)] == [
        ("c1", 1 * S, 3 * S, ""), ("c1", 8 * S, 9 * S, "no resume recorded"), ("c2", 1 * S, 2 * S, "ended by crash")]
    assert model.down_intervals(trace) == [model.Span("c2", 2 * S, 9 * S, "no restart")]


def test_down_and_partition_intervals(every_path):
    """Crashes last until their restart (or the run's end); partitions until their heal."""
    trace = load(every_path)
    assert [(s.what, s.start_ns, s.end_ns, s.note) for s in model.down_intervals(trace)] == [
        ("c3", 6 * S, 10 * S, "no restart"), ("r2", 1 * S, 1500 * MS, "")]
    assert [(s.what, s.start_ns, s.end_ns, s.note) for s in model.partition_intervals(trace)] == [
        ("partition 0", 2 * S, 2500 * MS, "hold"), ("partition 1", 2800 * MS, 3200 * MS, "drop")]


def test_partition_groups_are_the_recorded_sides(split_brain_path, redlock_path):
    """Each partition's sides as its fault line records them, in the scenario's order; a partition line without
    groups (a trace written before they were) gives none rather than a guess."""
    groups = model.partition_groups(load(split_brain_path))
    assert groups == {"partition 0": (("M", "c1"), ("R", "s1", "s2", "s3", "c2"))}
    assert model.groups_text(groups["partition 0"]) == "{M, c1} | {R, s1, s2, s3, c2}"
    assert model.partition_groups(load(redlock_path)) == {}


def test_slew_intervals(redlock_extend_path, every_path):
    """A slew lasts until the clock-drift that puts the rate back (or the run's end); its note is the slewed rate."""
    assert model.slew_intervals(load(redlock_extend_path)) == [model.Span("r3", 6 * S, 8 * S, "500000")]
    assert model.slew_intervals(load(every_path)) == [model.Span("r3", 4 * S, 4500 * MS, "-50000")]
    trace = parse_lines([header(ONE_NODE, ["r1"]),
                         line(1 * S, "fault", fault="clock-slew", target="r1", ppm=7, length_ns=10 * S, until=11 * S),
                         line(9 * S, "span", span="slewed", target="r1", ppm=7, start=1 * S, ended="run-ended"),
                         line(9 * S, "end")])
    assert model.slew_intervals(trace) == [model.Span("r1", 1 * S, 9 * S, "7")]


def test_ops_carry_the_application_state(gc_path):
    """Each accepted op is paired with the app state recorded right after it: the lost update shows."""
    pairs = model.ops_with_state(load(gc_path))
    assert [(op.client, op.op, app.counter if app else None) for op, app in pairs] == [
        ("c1", "read", None), ("c2", "read", None), ("c2", "write", 1), ("c1", "write", 1)]
    assert pairs[-1][1].increments == 2


def test_stock_ops_at_one_instant_share_a_label(oversell_path):
    """The buyers' six ops within 3 ms are one cluster; its label reads in time order, each sale with its buyer."""
    pairs = model.ops_with_state(load(oversell_path))
    (cluster,) = model.op_clusters(pairs, gap_ns=10 * MS)
    assert len(cluster) == 6
    assert model.cluster_lines(cluster) == [("read stock 1 ×3 (c1, c2, c3)", False),
                                            ("c1 decrement stock 0", False), ("c2 decrement stock -1", False),
                                            ("c3 decrement stock -2", False)]
    # The reads share an instant, so do the decrements: two clusters when 2 ms apart is too far.
    assert [len(c) for c in model.op_clusters(pairs, gap_ns=MS // 2)] == [3, 3]


def test_cluster_lines_name_refusals_and_stay_short():
    """A refusal is its own red line; ops alike collapse; past the limit the middle gives way to an ellipsis."""
    def op(t, client, name, accepted=True, reject="none"):
        return Op(t, 1, client, name, accepted, reject, -1)
    cluster = [(op(0, "c1", "write"), None), (op(1, "c2", "write"), None),
               (op(2, "c3", "write", False, "stale-token"), None), (op(3, "c4", "read"), None)]
    assert model.cluster_lines(cluster) == [("write ×2 (c1, c2)", False), ("c3 write ✗ stale-token", True),
                                            ("c4 read", False)]
    many = [(op(i, f"c{i}", f"op{i}"), None) for i in range(6)]
    assert [text for text, _ in model.cluster_lines(many)] == ["c0 op0", "…", "c4 op4", "c5 op5"]


def test_formatting():
    """Durations, instants and drifts read the way a reviewer says them."""
    assert model.fmt_duration(15 * S) == "15 s"
    assert model.fmt_duration(250 * MS) == "250 ms"
    assert model.fmt_duration(1500 * MS, signed=True) == "+1.5 s"
    assert model.fmt_duration(-40_000) == "-40 µs"
    assert model.fmt_time(11 * S + MS) == "11.001 s"
    assert model.fmt_drift(20_000) == "drift +20000 ppm (+2 %)"
    assert model.fmt_drift(-50_000, "slew") == "slew -50000 ppm (-5 %)"


def test_palette_is_okabe_ito():
    """Clients take Okabe-Ito colours; vermillion is kept for violations, never a client."""
    assert set(style.CLIENT_COLOURS) <= set(style.OKABE_ITO.values())
    assert style.VIOLATION == style.OKABE_ITO["vermillion"] not in style.CLIENT_COLOURS


# --- replication, Sentinel, services, the network ------------------------------------------


def test_initial_roles_are_the_first_role_intervals(failover_path, split_brain_path, oversell_path, gc_path):
    """A node's first role is its first judged role interval; a run in which no node is a replica has no roles."""
    assert repl.initial_roles(load(failover_path)) == {"M": "master", "R": "replica"}
    assert repl.initial_roles(load(split_brain_path)) == {"M": "master", "R": "replica"}
    assert repl.initial_roles(load(oversell_path)) == {}
    assert repl.initial_roles(load(gc_path)) == {}


def test_role_changes_know_the_role_before(failover_path, split_brain_path):
    """Each role change with the role it replaced: R's promotion; in the split brain M's demotion after the heal."""
    changes = repl.role_changes(load(failover_path))
    assert changes == [repl.RoleChange(1161 * MS, "R", "master", None, 1, "replica")]
    assert changes[0].promotion and changes[0].text == "promoted to master, epoch 1"
    promoted, demoted = repl.role_changes(load(split_brain_path))
    assert (promoted.t, promoted.node, promoted.text) == (2111 * MS, "R", "promoted to master, epoch 1")
    assert (demoted.t, demoted.node, demoted.before, demoted.promotion) == (12_101 * MS, "M", "master", False)
    assert demoted.text == "demoted: replica of R, epoch 1"
    assert repl.RoleChange(0, "R", "replica", "M2", 2, "replica").text == "now replica of M2, epoch 2"


def test_replica_copies_show_lag_and_what_a_promotion_inherits(failover_path, replicated_path, split_brain_path):
    """R never got c1's key when M crashed at once; with the crash at 1 s R's copy arrives 11 ms after M's hold
    began and lasts until R's promotion; after the split brain M holds a snapshot copy of c2's value."""
    assert repl.replica_copies(load(failover_path)) == []
    (copy,) = repl.replica_copies(load(replicated_path))
    assert (copy.node, copy.client, copy.session, copy.start_ns, copy.end_ns, copy.reason, copy.via, copy.lag_ns) == (
        "R", "c1", 1, 12 * MS, 2161 * MS, "promoted", "stream", 11 * MS)
    holds = model.hold_intervals(load(replicated_path))
    assert [(h.node, h.client, h.start_ns, h.reason) for h in holds if h.client == "c1"] == [
        ("M", "c1", MS, "lost-in-crash"), ("R", "c1", 2161 * MS, "deleted")]  # the copy became R's own hold
    (copy,) = repl.replica_copies(load(split_brain_path))
    assert (copy.node, copy.client, copy.start_ns, copy.end_ns, copy.reason, copy.via, copy.lag_ns) == (
        "M", "c2", 12_103 * MS, 12_504 * MS, "deleted", "resync", None)


def test_replica_copy_ends():
    """A copy ends at a different value (overwritten), a full resync's flush, a crash of the replica, or the run's
    end; a copy of a value a master never recorded has no lag."""
    def entry(t, value, present, offset, op="set"):
        fields = dict(key="lock", value=value) if op == "set" else {}
        return [message(t, "deliver", "M", "R", f"repl {op} @{offset}", "replication-entry", offset=offset, op=op,
                        **fields),
                line(t, "replicated", node="R", key="lock", value=value, present=present, offset=offset)]
    trace = parse_lines([
        header(REPLICATED, ["M", "R"]),
        line(0, "key-held", node="M", key="lock", value="aa"),
        *entry(10, "aa", True, 1),
        line(1 * S, "key-held", node="M", key="lock", value="bb"),
        *entry(1 * S + 10, "aa", False, 2), *entry(1 * S + 10, "bb", True, 2),
        *entry(2 * S, "bb", False, 3, op="flush"),
        *entry(2 * S, "cc", True, 3),  # from the snapshot: no lag
        line(3 * S, "fault", fault="crash", target="R", down_for_ns=-1, until=None),
        *entry(4 * S, "dd", True, 4),
        line(5 * S, "end"),
    ])
    copies = [(c.value, c.start_ns, c.end_ns, c.reason, c.via, c.lag_ns) for c in repl.replica_copies(trace)]
    assert copies == [("aa", 10, 1 * S + 10, "overwritten", "stream", 10),
                      ("bb", 1 * S + 10, 2 * S, "full resync", "stream", 10),
                      ("cc", 2 * S, 3 * S, "lost-in-crash", "resync", None),
                      ("dd", 4 * S, 5 * S, None, "stream", None)]


def test_sentinel_events_in_the_failover(failover_path):
    """Each sentinel's view: its first SDOWN ask, the leader's vote request, the votes, the promotion order and each
    +switch-master once (the hellos that repeat it every 2 s are not events)."""
    events = [(e.t, e.sentinel, e.kind, e.text) for e in repl.sentinel_events(load(failover_path))]
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
    events = repl.sentinel_events(load(split_brain_path))
    assert [(e.sentinel, e.kind) for e in events if e.t < 3 * S] == [
        ("s1", "sdown"), ("s2", "sdown"), ("s3", "sdown"), ("s2", "ask-votes"), ("s1", "vote"), ("s3", "vote"),
        ("s2", "promote"), ("s2", "switch"), ("s1", "switch"), ("s3", "switch")]
    late = [(e.t, e.sentinel, e.text) for e in events if e.t >= 3 * S]
    assert late == [(12_100 * MS, "s1", "REPLICAOF R → M"), (12_110 * MS, "s2", "REPLICAOF R → M"),
                    (12_120 * MS, "s3", "REPLICAOF R → M")]


def test_service_calls_wait_out_the_pause(oversell_path):
    """The three buyers' calls reach identity only when its 30 s pause ends and are answered together."""
    calls = repl.service_calls(load(oversell_path))
    assert [(c.service, c.client, c.called_ns, c.arrived_ns, c.answered_ns, c.received_ns) for c in calls] == [
        ("identity", "c1", 2 * MS, 30 * S, 30_005 * MS, 30_006 * MS),
        ("identity", "c2", 10_122 * MS, 30 * S, 30_005 * MS, 30_006 * MS),
        ("identity", "c3", 20_242 * MS, 30 * S, 30_005 * MS, 30_006 * MS)]
    assert model.pause_intervals(load(oversell_path)) == [model.Span("identity", 0, 30 * S)]


def test_message_bursts(failover_path):
    """Pings to the dead M are runs of drops: with a 300 ms gap one burst from the first drop to the last."""
    trace = load(failover_path)
    (burst,) = repl.message_bursts(trace, gap_ns=300 * MS)
    kind, msgs = burst
    dropped = [m for m in trace.of(Message) if m.type == "drop-crashed"]
    assert kind == "dropped" and msgs == dropped and {m.receiver for m in msgs} == {"M"}
    assert len(repl.message_bursts(trace, gap_ns=10 * MS)) > 100


# --- no prose ------------------------------------------------------------------------------------


def _model_of(trace) -> dict:
    """Everything the timeline derives from a trace, as comparable data."""
    holds = model.hold_intervals(trace)
    return dict(beliefs=model.belief_intervals(trace), holds=holds, holder=model.holder_intervals(trace),
                groups=model.group_failed_attempts(holds, 100 * MS), pauses=model.pause_intervals(trace),
                down=model.down_intervals(trace), partitions=model.partition_intervals(trace),
                slews=model.slew_intervals(trace), ops=model.ops_with_state(trace),
                renewals=model.failed_renewals(trace), roles=repl.initial_roles(trace),
                changes=repl.role_changes(trace), copies=repl.replica_copies(trace),
                sentinels=repl.sentinel_events(trace), calls=repl.service_calls(trace),
                bursts=[(k, [m.t for m in ms]) for k, ms in repl.message_bursts(trace, 100 * MS)],
                activity=trace.activity_end_ns)


@pytest.mark.parametrize("name", FIXTURES)
def test_blanked_message_text_gives_the_same_model(name):
    """The timeline never reads a message's msg: with every msg blanked, everything it derives is the same."""
    text = (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    blanked = []
    for raw in text:
        obj = json.loads(raw)
        if "msg" in obj:
            obj["msg"] = ""
        blanked.append(json.dumps(obj))
    assert _model_of(parse_lines(blanked)) == _model_of(parse_lines(text))


def test_no_analysis_module_reads_message_text():
    """No module of analysis/ reads a message's .msg (the text is for people), nor splits or prefix-matches it."""
    offenders = []
    for path in sorted(ANALYSIS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # (trace.py reports a JSONDecodeError's own .msg: not a message's.)
            if isinstance(node, ast.Attribute) and node.attr == "msg" and not (
                    isinstance(node.value, ast.Name) and node.value.id == "e" and path.name == "trace.py"):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_model_records_are_plain_data():
    """What the model hands the painter is frozen dataclasses (comparable, hashable where it matters)."""
    for cls in (model.Belief, model.WindowPiece, model.Hold, model.Span, repl.RoleChange, repl.ReplicaCopy,
                repl.SentinelEvent, repl.Call):
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
