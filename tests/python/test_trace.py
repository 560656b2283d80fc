"""Tests for analysis/trace.py: lines into records, message payloads, judged lines, verdicts, malformed input."""

from __future__ import annotations

import dataclasses
import json

import pytest

from analysis.trace import (
    LINE_FIELDS, PAYLOAD_FIELDS, App, BeliefEnd, Complete, End, Extend, Fault, FaultFired, FaultSpan, GiveUp, Grant,
    Invoke, IsMasterDown, Judged, JudgedBelief, JudgedHolder, JudgedRole, JudgedVerdict, JudgedWindow, KeyDropped, KeyHeld, MasterDownReply, Message, Op,
    InfoReply, PhaseReached, Promise, RedisReply, RedisRequest, Release, Replicated, ReplicaOf, ReplicationAck,
    ReplicationEntry, ResourceReply, ResourceRequest, Role, ServiceCall, SwitchMaster, TraceError,
    UnknownPayload, Want, Witness, is_background, load, load_verdicts, parse_lines)
from analysis.trace_records import SCHEMA
from tracelines import MS, ONE_NODE, REPLICATED, S, grant, header, judged, line, message


def test_loader_parses_every_line_type(every_path):
    """Every line type the simulator writes becomes its typed record, with its fields."""
    trace = load(every_path)
    kinds = {type(r) for r in trace.records}
    assert kinds == {Message, Invoke, Complete, Want, GiveUp, Grant, Extend, BeliefEnd, Release, KeyHeld, KeyDropped,
                     Op, App, Fault, FaultSpan, FaultFired, PhaseReached, End, Promise, Judged, JudgedBelief, JudgedWindow,
                     JudgedHolder, JudgedRole, JudgedVerdict}
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
    assert (partition.target, partition.partition, partition.mode, partition.until) == (None, 0, "hold", 2500 * MS)
    lost = next(m for m in trace.of(Message) if m.type == "lost")
    assert (lost.sender, lost.receiver, lost.kind) == ("c1", "r3", "redis-request")
    assert lost.payload == RedisRequest(3, "SET", key="lock", value="11aa22bb33cc44dd", nx=True, px_ms=5000)
    assert trace.of(App)[-1].quiescent is True and trace.of(App)[-1].stock == 0
    assert trace.of(Extend) == [Extend(5001 * MS, 2, "c3", "monotonic")]
    assert trace.of(FaultFired) == [FaultFired(100 * MS, "c1-gc", True), FaultFired(600 * MS, "c1-second-gc", False)]
    slew = next(f for f in trace.of(Fault) if f.fault == "clock-slew")
    assert (slew.t, slew.target, slew.ppm, slew.length_ns, slew.until) == (4 * S, "r3", -50_000, 500 * MS, 4500 * MS)
    crash = next(f for f in trace.of(Fault) if f.fault == "crash")
    assert (crash.target, crash.down_for_ns, crash.until, crash.length_ns) == ("r2", 500 * MS, 1500 * MS, None)
    assert [(s.span, s.target, s.partition, s.start, s.t, s.ended) for s in trace.of(FaultSpan)][:3] == [
        ("paused", "c1", None, 100 * MS, 1100 * MS, "resumed"), ("down", "r2", None, 1 * S, 1500 * MS, "restarted"),
        ("partitioned", None, 0, 2 * S, 2500 * MS, "healed")]
    assert [(p.session, p.origin, p.promised_end, p.at) for p in trace.of(Promise)] == [
        (1, "grant", 2900 * MS, MS), (2, "grant", 8400 * MS, 3501 * MS), (2, "extend", 9899 * MS, 5001 * MS)]
    assert set(trace.frames()) == {"send", "deliver", "lost", "partition-drop", "partition-hold", "drop-crashed",
                                   "invoke", "complete", "want", "give-up", "grant", "extend", "belief-end",
                                   "release", "key-held", "key-dropped", "op", "app", "fault", "span", "fault-fired",
                                   "phase", "end",
                                   "promise", "judged", "belief", "promised-window", "holder", "role-interval",
                                   "verdict"}
    assert list(trace.frame("promise")["origin"]) == ["grant", "grant", "extend"]
    assert set(trace.frame("send")["kind"]) == {"redis-request", "redis-reply", "resource-request", "resource-reply"}


def test_message_payloads_are_records(failover_path, split_brain_path, oversell_path):
    """Each payload kind becomes its record: a node's INFO says its role, a sentinel's messages their subjects."""
    trace = load(failover_path)
    first = {}
    for m in trace.of(Message):
        first.setdefault(type(m.payload), m.payload)
    assert (first[InfoReply].role, first[InfoReply].master) == ("master", None)
    down = first[IsMasterDown]
    assert (down.master, down.epoch, down.wants_vote) == ("M", 0, False)
    assert first[ReplicaOf] == ReplicaOf(None, 1)
    assert first[SwitchMaster] == SwitchMaster("M", "R", 1)
    votes = {(m.sender, m.payload.leader, m.payload.epoch) for m in trace.of(Message)
             if isinstance(m.payload, MasterDownReply) and m.payload.leader is not None}
    assert votes == {("s1", "s3", 1), ("s2", "s3", 1)}
    assert first[ReplicationAck] == ReplicationAck(0, True)
    entries = {m.payload for m in load(split_brain_path).of(Message) if isinstance(m.payload, ReplicationEntry)}
    assert {e.op for e in entries} == {"set", "del", "flush"}
    replies = [m.payload for m in load(split_brain_path).of(Message) if isinstance(m.payload, RedisReply)]
    assert any(r.reply == "error" and r.error.startswith("READONLY") for r in replies)
    kinds = {type(m.payload) for m in load(oversell_path).of(Message)}
    assert {ResourceRequest, ResourceReply, ServiceCall} <= kinds


def test_payload_fields_are_checked():
    """A payload with a missing or mistyped field is refused with source:line; a declared payload no drawing code
    reads (the store's traffic) keeps its checked fields; a message line from before payloads had fields has none."""
    with pytest.raises(TraceError, match=r'^<t>:2: "redis-request" message lacks "cmd"$'):
        parse_lines([header(ONE_NODE, ["r1"]), message(0, "send", "c1", "r1", "GET lock", "redis-request",
                                                       request_id=1)], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "info-reply" field "role" should be str'):
        parse_lines([header(ONE_NODE, ["r1"]), message(0, "send", "r1", "c1", "INFO (master)", "info-reply",
                                                       request_id=1, role=1, offset=0)], source="<t>")
    trace = parse_lines([header(ONE_NODE, ["r1"]), message(0, "send", "c1", "r1", "VOTE?", "request-vote", term=2,
                                                           last_log_index=5, last_log_term=1),
                         line(1, "send", **{"from": "c1", "to": "r1", "msg": "SET lock aa"})])
    new, old = trace.of(Message)
    assert new.payload == UnknownPayload("request-vote", {})
    assert new.payload.fields == {"kind": "request-vote", "term": 2, "last_log_index": 5, "last_log_term": 1}
    assert new.kind == "request-vote" and old.payload is None and old.kind is None
    with pytest.raises(TraceError, match=r'^<t>:2: "vote" message lacks "granted"$'):
        parse_lines([header(ONE_NODE, ["r1"]), message(0, "send", "r1", "c1", "VOTE", "vote", term=2)], source="<t>")


def test_background_messages_are_known_by_their_kind():
    """Pings, pongs, INFO, replica acks and the sentinels' hellos to each other are heartbeats; an attach is not."""
    kinds = {"s1": "sentinel", "s2": "sentinel", "c1": "client", "M": "redis"}
    trace = parse_lines([
        header(REPLICATED, ["M", "R"]),
        message(0, "send", "s1", "M", "PING", "ping", request_id=1),
        message(0, "send", "s1", "M", "INFO", "info", request_id=2),
        message(0, "send", "M", "s1", "INFO (master)", "info-reply", request_id=2, role="master", offset=0),
        message(0, "send", "R", "M", "REPLCONF ACK 3", "replication-ack", offset=3, attach=False),
        message(0, "send", "R", "M", "PSYNC (attach) 0", "replication-ack", offset=0, attach=True),
        message(0, "send", "s1", "s2", "+switch-master M -> R", "switch-master", old_master="M", new_master="R",
                epoch=1),
        message(0, "send", "s1", "c1", "+switch-master M -> R", "switch-master", old_master="M", new_master="R",
                epoch=1),
    ])
    assert [is_background(m, kinds) for m in trace.of(Message)] == [True, True, True, True, False, True, False]


def test_judged_lines_are_records(gc_path):
    """The judged lines become records: beliefs, window pieces, the holder, roles, verdicts with their witness."""
    trace = load(gc_path)
    head = trace.require_judged()
    assert head == Judged(25 * S, 2, 2, 2, 1, 5)
    b1, b2 = trace.of(JudgedBelief)
    assert (b1.session, b1.start, b1.end, b1.stop, b1.promised_end, b1.released) == (
        1, MS, 15_003 * MS, "released", 10 * S, 15_003 * MS)
    assert trace.of(JudgedWindow)[1] == JudgedWindow(25 * S, 2, "c2", 11_001 * MS, 11_003 * MS, "grant", 21 * S,
                                                     "released")
    assert [(h.start, h.end, h.session) for h in trace.of(JudgedHolder)] == [
        (MS // 2, 10 * S + MS // 2, 1), (11 * S + MS // 2, 11 * S + 7 * MS // 2, 2)]
    assert trace.of(JudgedRole) == [JudgedRole(25 * S, "r1", "master", 0, 0, 25 * S, False)]
    p2 = trace.of(JudgedVerdict)[1]
    assert (p2.property, p2.id, p2.status, p2.count) == ("belief-exclusive", "P2", "violated", 1)
    assert isinstance(p2.witness, Witness) and (p2.witness.at_ns, p2.witness.who, p2.witness.other_session) == (
        11_001 * MS, "c2", 1)
    verdicts = trace.verdicts()
    assert [(v.id, v.violated, v.witness_ns) for v in verdicts] == [
        ("P1", False, None), ("P2", True, 11_001 * MS), ("P3", True, 15_002_500_000), ("P4", True, 15_002_500_000),
        ("P5", True, 15_002_500_000)]
    assert trace.activity_end_ns < trace.end_ns == 25 * S  # judged lines are not activity


def test_a_fault_line_from_before_typed_faults_is_refused():
    """A fault line with one overloaded "amount" (written before each fault kind had its own fields) is refused with
    source:line and how to get a trace the analysis reads, rather than read with its spans missing."""
    with pytest.raises(TraceError, match=r'^old\.jsonl:2: a fault line with "amount" .*run the scenario again'):
        parse_lines([header(ONE_NODE, ["r1"]), line(S, "fault", fault="pause", target="c1", amount=S)],
                    source="old.jsonl")


def test_a_trace_without_judged_lines_is_refused_by_what_needs_them(tmp_path):
    """Older traces load, but require_judged says what is missing and how to get it; a cut-short one is caught."""
    old = parse_lines([header(ONE_NODE, ["r1"]), grant(0, 1, "c1", "aa"), line(5 * S, "end")], source="old.jsonl")
    assert old.judged is None and old.verdicts() == []
    with pytest.raises(TraceError, match=r"^old\.jsonl: no judged lines \(belief, promised-window, holder, "
                                         r"role-interval, verdict\).*re-run locksim"):
        old.require_judged()
    cut = parse_lines([header(ONE_NODE, ["r1"]), line(5 * S, "end"), *judged(5 * S)[:-1]], source="cut.jsonl")
    with pytest.raises(TraceError, match=r'^cut\.jsonl: the "judged" line announces 5 "verdict" lines, the trace '
                                         r'has 4'):
        cut.require_judged()


def test_judged_lines_are_checked():
    """A judged line with a field missing or of the wrong type is refused with source:line."""
    with pytest.raises(TraceError, match=r'^<t>:2: "belief" line lacks "stop"$'):
        parse_lines([header(ONE_NODE, ["r1"]), line(1, "belief", session=1, client="c1", value="aa", token=-1,
                                                    start=0, end=1, promised_end=None, released=None,
                                                    extensions=0)], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "verdict" witness lacks "text"$'):
        parse_lines([header(ONE_NODE, ["r1"]), line(1, "verdict", property="invariant", id="P5", status="violated",
                                                    count=1, witness={"at_ns": 1, "at": "1ns"})], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "holder" field "start" should be int, got None'):
        parse_lines([header(ONE_NODE, ["r1"]), line(1, "holder", start=None, end=1, value="aa", session=None,
                                                    client=None)], source="<t>")


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
    assert list(trace.frame("belief")["stop"]) == ["released", "released"]


def test_promise_of_minus_one_means_never():
    """A promise line with promised_end -1 loads as None; one without "from" is refused (the schema requires it); a
    "from" other than grant/extend is an error."""
    trace = parse_lines([header(ONE_NODE, ["r1"]), grant(0, 1, "c1", "aa"), line(5 * S, "end"),
                         line(5 * S, "promise", at=0, session=1, client="c1", promised_end=-1, **{"from": "grant"})])
    assert trace.of(Promise)[0].promised_end is None and trace.of(Promise)[0].origin == "grant"
    with pytest.raises(TraceError, match=r'^<t>:2: "promise" line lacks "from"'):
        parse_lines([header(ONE_NODE, ["r1"]), line(0, "promise", at=0, session=1, client="c1", promised_end=-1)],
                    source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "promise" field "from" should be grant or extend'):
        parse_lines([header(ONE_NODE, ["r1"]),
                     line(0, "promise", at=0, session=1, client="c1", promised_end=3 * S, **{"from": "renew"})],
                    source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "extend" line lacks "clock"$'):
        parse_lines([header(ONE_NODE, ["r1"]), line(0, "extend", session=1, client="c1")], source="<t>")


def test_what_the_schema_does_not_declare_is_refused_by_name():
    """A line type or message kind the schema does not declare, or a header of another format version, is refused
    with source:line and its name — never read as if it were something else."""
    with pytest.raises(TraceError, match=r"^<t>:2: unknown line type 'sentinel-vote' \(trace format 2"):
        parse_lines([header(ONE_NODE, ["r1"]), line(7, "sentinel-vote", node="s1")], source="<t>")
    with pytest.raises(TraceError, match=r"^<t>:2: unknown message kind 'hello'"):
        parse_lines([header(ONE_NODE, ["r1"]), message(0, "send", "c1", "r1", "HELLO", "hello", n=1)], source="<t>")
    newer = {**json.loads(header(ONE_NODE, ["r1"])), "format": 3}
    with pytest.raises(TraceError, match=r"^<t>:1: trace format 3, and this analysis reads format 2"):
        parse_lines([json.dumps(newer)], source="<t>")


def test_the_records_are_the_schemas_lines():
    """Every line type and payload kind `locksim trace-schema` declares has its record class here, with one attribute
    per declared field (and nothing the schema does not declare): the Python side cannot drift from the writer's."""
    for name, (cls, fields) in {**LINE_FIELDS, **PAYLOAD_FIELDS}.items():
        if cls in (Message, UnknownPayload):
            continue
        attrs = {f.name for f in dataclasses.fields(cls)} - {"t"}
        assert attrs == {f.name for f in fields}, name
    assert set(LINE_FIELDS) == {d["name"] for d in SCHEMA["lines"] if d["section"] != "header"}


@pytest.mark.parametrize("lines, message_", [
    ([], "<t>: not a locksim trace (empty)"),
    (["hello world"], "<t>:1: not a locksim trace (not JSON"),
    (['{"t":0,"type":"send","from":"c1","to":"r1","msg":"x"}'], "<t>:1: not a locksim trace (the first line"),
    (["[1, 2]"], "<t>:1: not a locksim trace (a line is not"),
])
def test_loader_rejects_what_is_not_a_trace(lines, message_):
    """Empty input, non-JSON, or a first line that is no "run" header is refused with source:line."""
    with pytest.raises(TraceError) as err:
        parse_lines(lines, source="<t>")
    assert str(err.value).startswith(message_)


def test_loader_names_the_line_of_a_malformed_record():
    """A known line type with a missing or mistyped field is reported as source:line and key."""
    with pytest.raises(TraceError, match=r'^<t>:3: "grant" line lacks "token"$'):
        parse_lines([header(ONE_NODE, ["r1"]), line(0, "want", client="c1"),
                     line(1, "grant", session=1, client="c1", value="aa", validity_ns=1, clock="wall")], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "op" field "accepted" should be bool'):
        parse_lines([header(ONE_NODE, ["r1"]), line(1, "op", session=1, client="c1", op="write", accepted=1,
                                                    reject="none", token=-1)], source="<t>")


def test_loader_checks_role_lines():
    """A role no node has, a replica without its master, or a store member's role without its term, is refused with
    source:line."""
    with pytest.raises(TraceError, match=r'^<t>:2: "role" field "role" should be one of master, replica, leader'):
        parse_lines([header(REPLICATED, ["M", "R"]), line(1, "role", node="R", role="primary", epoch=1)], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "role" line of a store member lacks "term"$'):
        parse_lines([header(REPLICATED, ["M", "R"]), line(1, "role", node="R", role="leader")], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "role" line of a replica lacks "master"$'):
        parse_lines([header(REPLICATED, ["M", "R"]), line(1, "role", node="M", role="replica", epoch=1)], source="<t>")
    with pytest.raises(TraceError, match=r'^<t>:2: "replicated" field "present" should be bool'):
        parse_lines([header(REPLICATED, ["M", "R"]), line(1, "replicated", node="R", key="lock", value="aa",
                                                          present=1, offset=1)], source="<t>")


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
