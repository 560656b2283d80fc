"""What a timeline draws, as plain data: from a trace's records to beliefs, holds, spans and op clusters.

No matplotlib here: every function is pure, and the tests check them without drawing. What the simulator's
checkers judged is read, never computed again: a session's belief interval and why it stopped, its promised
window as property P1 reads it (``JudgedBelief`` / ``JudgedWindow`` lines) and the service holder
(``JudgedHolder``). What is derived here is only how facts pair up for drawing: a node's key-held with its
key-dropped, a pause with its resume, a partition with its heal. Messages are read by their payload fields
(``RedisRequest.value``, ``.deletes``), never by their ``msg`` text.

Replication, Sentinel and called services are in ``analysis/timeline_replication.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Sequence

from analysis.trace import (
    App, Complete, Extend, Fault, FaultSpan, Grant, JudgedBelief, JudgedHolder, JudgedRole, JudgedWindow, KeyDropped,
    KeyHeld, Message, Op, RedisRequest, Replicated, Trace)

NS_PER_S = 1_000_000_000


# --- clients: beliefs and promised windows (judged) ------------------------------


@dataclass(frozen=True)
class WindowPiece:
    """A piece of a promised window as P1 reads it: [start, end) under the grant's or an extension's promise."""

    start_ns: int
    end_ns: Optional[int]  # None: never ends
    by: str  # grant | extension


@dataclass(frozen=True)
class Belief:
    """One session as its client saw it, as the checkers judged it."""

    session: int
    client: str
    value: str
    token: int  # -1: no fencing token
    start_ns: int  # the grant
    end_ns: int
    end_reason: str  # released | validity-check | session-lost | crashed | client-crash | abandoned | run-end
    promised_end_ns: Optional[int]  # the grant's promise: the client's clock reaches the validity; None: never
    window: tuple[WindowPiece, ...] = ()  # in time order; none: the lease was over when it was granted
    renewals: tuple[int, ...] = ()  # when each extension was recorded

    @property
    def window_end_ns(self) -> Optional[int]:
        """Where the promised window ends (its last piece); None: never. A grant with no window: its start."""
        return self.window[-1].end_ns if self.window else self.start_ns

    @property
    def expired_at_grant(self) -> bool:
        """Acquire returned a lease already over on the client's own clock (node-redlock's first-attempt bug)."""
        return self.promised_end_ns is not None and self.promised_end_ns <= self.start_ns


def belief_intervals(trace: Trace) -> list[Belief]:
    """Each session's belief and promised window, from the judged lines (``Trace.require_judged`` first), with the
    instants of its extensions (the extend facts: ticks on the window)."""
    pieces: dict[int, list[WindowPiece]] = {}
    for w in trace.of(JudgedWindow):
        pieces.setdefault(w.session, []).append(WindowPiece(w.start, w.end, w.by))
    renewals: dict[int, list[int]] = {}
    for e in trace.of(Extend):
        renewals.setdefault(e.session, []).append(e.t)
    return [Belief(session=b.session, client=b.client, value=b.value, token=b.token, start_ns=b.start, end_ns=b.end,
                   end_reason=b.stop, promised_end_ns=b.promised_end, window=tuple(pieces.get(b.session, ())),
                   renewals=tuple(renewals.get(b.session, ())))
            for b in trace.of(JudgedBelief)]


def window_bands(b: Belief) -> list[tuple[int, Optional[int], str]]:
    """The promised window as drawn: (start, end, "grant" | "extension") bands. Pieces that touch are one stretch;
    the stretch that starts at the grant is the grant's until the grant's own promise ends and the extensions'
    after it, any later stretch (a lapsed lease renewed) is all the extensions'."""
    stretches: list[list[Optional[int]]] = []
    for p in b.window:
        if stretches and stretches[-1][1] == p.start_ns:
            stretches[-1][1] = p.end_ns
        else:
            stretches.append([p.start_ns, p.end_ns])
    bands: list[tuple[int, Optional[int], str]] = []
    for start, end in stretches:
        if start != b.start_ns:
            bands.append((start, end, "extension"))
            continue
        split = end if b.promised_end_ns is None else max(b.promised_end_ns, start)
        if end is not None and split is not None:
            split = min(split, end)
        bands.append((start, split, "grant"))
        if split is not None and (end is None or split < end):
            bands.append((split, end, "extension"))
    return bands


def failed_renewals(trace: Trace) -> list[Complete]:
    """Extension requests that did not succeed (fail, or info: the client never heard): the lease was not renewed."""
    return [c for c in trace.of(Complete) if c.kind == "extend" and c.outcome != "ok"]


def holder_intervals(trace: Trace) -> list[JudgedHolder]:
    """The service holder over time (a value on a quorum of the service's nodes), as the checkers computed it."""
    return trace.of(JudgedHolder)


# --- Redis nodes: what each holds -----------------------------------------------------


@dataclass(frozen=True)
class Hold:
    """A stretch of time in which a node's key maps to one lock value."""

    node: str
    key: str
    value: str
    start_ns: int
    end_ns: int
    reason: Optional[str]  # why it went; None: still held when the run ended
    client: Optional[str]  # whose value: the grant's client, else the client that sent SET with it
    session: Optional[int]  # the session it belongs to, if that acquisition became a grant
    by: Optional[str] = None  # reason "deleted": the client whose DEL / compare-and-delete reached the node then


def value_owners(trace: Trace) -> dict[str, tuple[str, Optional[int]]]:
    """Lock value -> (client, session): from grants, else from the client whose SET or SETNX carried it."""
    owners: dict[str, tuple[str, Optional[int]]] = {}
    clients = set(trace.clients)
    for m in trace.of(Message):
        p = m.payload
        if m.type == "send" and m.sender in clients and isinstance(p, RedisRequest) and p.sets and p.value:
            owners.setdefault(p.value, (m.sender, None))
    for g in trace.of(Grant):
        owners[g.value] = (g.client, g.session)
    return owners


def hold_intervals(trace: Trace) -> list[Hold]:
    """Each (node, key, value) stretch from key-held to key-dropped (or the run's end).

    A key-held for a value the key already maps to (a renewal) continues the
    stretch; one for a different value ends the old stretch as "overwritten"
    if no key-dropped said so already. A stretch deleted at the instant a
    client's DEL or compare-and-delete reached the node names that client
    (``by``): the incident's plain DEL deletes the next buyer's lock.
    """
    owners = value_owners(trace)
    open_: dict[tuple[str, str], tuple[int, str]] = {}
    holds: list[Hold] = []
    deleter: dict[str, tuple[int, str]] = {}  # node -> (when, who) of the last delete command it received

    def close(node: str, key: str, end_ns: int, reason: Optional[str]) -> None:
        start, value = open_.pop((node, key))
        client, session = owners.get(value, (None, None))
        by = None
        if reason == "deleted" and node in deleter and deleter[node][0] == end_ns:
            by = deleter[node][1]
        holds.append(Hold(node, key, value, start, end_ns, reason, client, session, by))

    for r in trace.of(Message, KeyHeld, KeyDropped):
        if isinstance(r, Message):
            if r.type == "deliver" and isinstance(r.payload, RedisRequest) and r.payload.deletes:
                deleter[r.receiver] = (r.t, r.sender)
            continue
        k = (r.node, r.key)
        if isinstance(r, KeyHeld):
            if k in open_:
                if open_[k][1] == r.value:
                    continue
                close(r.node, r.key, r.t, "overwritten")
            open_[k] = (r.t, r.value)
        elif k in open_:
            close(r.node, r.key, r.t, r.reason)
    run_end = trace.end_ns
    for node, key in list(open_):
        close(node, key, run_end, None)
    holds = [_while_leading(h, trace) for h in holds]
    holds.sort(key=lambda h: (h.node, h.start_ns))
    return holds


def _while_leading(hold: Hold, trace: Trace) -> Hold:
    """A store member states the committed owner only while it leads (the next leader carries the state on): its
    stretch ends when it stops leading or crashes. Redis nodes' stretches are returned as they are."""
    if hold.node not in trace.run.names_of("store"):
        return hold
    end, reason = hold.end_ns, hold.reason
    for r in trace.of(JudgedRole):
        if r.node == hold.node and r.role == "leader" and r.start <= hold.start_ns < r.end < end:
            end, reason = r.end, "no longer leads"
    for f in trace.of(Fault):
        if f.target == hold.node and f.fault == "crash" and hold.start_ns <= f.t < end:
            end, reason = f.t, "crashed"
    return hold if end == hold.end_ns else replace(hold, end_ns=end, reason=reason)


def group_failed_attempts(holds: Sequence[Hold], gap_ns: int) -> list[list[Hold]]:
    """Holds as a node lane draws them: each alone, except that a run of holds from failed attempts (no grant) of
    one client on one node and key, each starting within ``gap_ns`` of the previous one's end, becomes one group —
    a client retrying every few milliseconds is one burst at a glance, not forty slivers and forty labels.

    ``holds`` in ``hold_intervals`` order (by node, then start); groups keep that order.
    """
    groups: list[list[Hold]] = []
    for h in holds:
        if groups and h.session is None:
            last = groups[-1][-1]
            if (last.session is None and last.reason is not None and (last.node, last.key, last.client)
                    == (h.node, h.key, h.client) and h.client is not None and 0 <= h.start_ns - last.end_ns <= gap_ns):
                groups[-1].append(h)
                continue
        groups.append([h])
    return groups


def reasons_text(group: Sequence[Hold]) -> Optional[str]:
    """Why a group's values went: "expired"; for a burst "deleted" or "deleted ×9 · expired ×1"; None: still held."""
    counts: dict[str, int] = {}
    for h in group:
        if h.reason is not None:
            counts[h.reason] = counts.get(h.reason, 0) + 1
    if not counts:
        return None
    if len(counts) == 1 and sum(counts.values()) == len(group):
        return next(iter(counts))
    return " · ".join(f"{reason} ×{n}" for reason, n in counts.items())


def lock_keys(trace: Trace) -> set[str]:
    """The keys any node held a lock value under (more than one: labels name the key)."""
    return {h.key for h in trace.of(KeyHeld)} | {r.key for r in trace.of(Replicated)}


# --- faults ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """A process paused, down, or a network partition: [start_ns, end_ns)."""

    what: str  # the process, or "partition <id>"
    start_ns: int
    end_ns: int
    note: str = ""  # e.g. "no restart" / "drop"


def _spans(trace: Trace, what: str) -> list[FaultSpan]:
    return [s for s in trace.of(FaultSpan) if s.span == what]


def pause_intervals(trace: Trace) -> list[Span]:
    """Each process's pauses, as the world wrote them (a pause inside a longer one is the longer one)."""
    notes = {"resumed": "", "crashed": "ended by crash", "run-ended": "no resume recorded"}
    spans = [Span(s.target, s.start, s.t, notes.get(s.ended, s.ended)) for s in _spans(trace, "paused")]
    return sorted(spans, key=lambda s: (s.what, s.start_ns))


def down_intervals(trace: Trace) -> list[Span]:
    """Each process's crashed stretches: from the crash until its restart, else the run's end."""
    spans = [Span(s.target, s.start, s.t, "no restart" if s.ended == "run-ended" else "") for s in _spans(trace, "down")]
    return sorted(spans, key=lambda s: (s.what, s.start_ns))


def partition_intervals(trace: Trace) -> list[Span]:
    """Each network partition (by id) from its start to its heal, else the run's end; note: its mode."""
    spans = [Span(f"partition {s.partition}", s.start, s.t, s.mode or "drop") for s in _spans(trace, "partitioned")]
    return sorted(spans, key=lambda s: s.start_ns)


def partition_groups(trace: Trace) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The processes on each side of each partition (by its ``partition_intervals`` name, "partition 0"), as its
    fault line records them; a partition whose line has no groups (a trace written before they were) is left out."""
    return {f"partition {f.partition}": f.groups for f in trace.of(Fault) if f.fault == "partition" and f.groups}


def groups_text(groups: Sequence[Sequence[str]]) -> str:
    """[["M", "c1"], ["R", "s1"]] -> "{M, c1} | {R, s1}"."""
    return " | ".join("{" + ", ".join(g) + "}" for g in groups)


def slew_intervals(trace: Trace) -> list[Span]:
    """Each clock slew, from its clock-slew fault until the clock's rate changed again (its end, or another fault),
    else the run's end. note: the ppm, as text."""
    spans = [Span(s.target, s.start, s.t, str(s.ppm)) for s in _spans(trace, "slewed")]
    return sorted(spans, key=lambda s: (s.what, s.start_ns))


# --- the resource ------------------------------------------------------------------------


def ops_with_state(trace: Trace) -> list[tuple[Op, Optional[App]]]:
    """Each resource op with the application state recorded right after it (accepted ops only)."""
    out: list[tuple[Op, Optional[App]]] = []
    for r in trace.of(Op, App):
        if isinstance(r, Op):
            out.append((r, None))
        elif out and out[-1][1] is None and out[-1][0].accepted and out[-1][0].t == r.t:
            out[-1] = (out[-1][0], r)
    return out


def op_clusters(pairs: Sequence[tuple[Op, Optional[App]]], gap_ns: int) -> list[list[tuple[Op, Optional[App]]]]:
    """Ops (``ops_with_state`` pairs, in time order) that follow each other within ``gap_ns``: one cluster each, so
    ops at one instant (three buyers at once) get one stacked label instead of four that fight for room."""
    clusters: list[list[tuple[Op, Optional[App]]]] = []
    for pair in pairs:
        if clusters and pair[0].t - clusters[-1][-1][0].t <= gap_ns:
            clusters[-1].append(pair)
        else:
            clusters.append([pair])
    return clusters


def op_text(op: Op, app: Optional[App]) -> str:
    """An op as its label says it: "write = 1", "decrement stock -1", "write ✗ stale-token"."""
    if not op.accepted:
        return f"{op.op} ✗ {op.reject}"
    return f"{op.op} {app_note(app)}" if app_note(app) else op.op


def cluster_lines(cluster: Sequence[tuple[Op, Optional[App]]], limit: int = 4) -> list[tuple[str, bool]]:
    """A cluster's label as (line, rejected) pairs in time order, one line per op with its client ("c2 decrement
    stock -1"), except that a run of ops alike (same op, same outcome, same state after) is one line ("read stock 1
    ×3 (c1, c2, c3)"). More than ``limit`` lines keep the first and the last ones around an ellipsis."""
    runs: list[list[tuple[Op, str]]] = []
    for op, app in cluster:
        text = op_text(op, app)
        if runs and runs[-1][0][1] == text and runs[-1][0][0].accepted == op.accepted:
            runs[-1].append((op, text))
        else:
            runs.append([(op, text)])
    lines: list[tuple[str, bool]] = []
    for run in runs:
        first, text = run[0]
        if len(run) == 1:
            lines.append((f"{first.client} {text}", not first.accepted))
        else:
            who = ", ".join(dict.fromkeys(op.client for op, _ in run))
            lines.append((f"{text} ×{len(run)} ({who})", not first.accepted))
    if len(lines) > limit:
        lines = lines[:1] + [("…", False)] + lines[-(limit - 2):]
    return lines


def app_note(app: Optional[App]) -> str:
    """What the application looks like after an op, in the app's own terms."""
    if app is None:
        return ""
    if app.app == "counter":
        return f"= {app.counter}"
    if app.app == "collection":
        return f"size {app.size}/{app.elements}"
    if app.app == "stock":
        return f"stock {app.stock}"
    return ""


def final_app_note(trace: Trace) -> str:
    """The application's state when the run ended (its last quiescent "app" line)."""
    apps = [a for a in trace.of(App) if a.quiescent]
    if not apps:
        return ""
    a = apps[-1]
    if a.app == "counter":
        return f"counter {a.counter} after {a.increments} accepted increments"
    if a.app == "register":
        return f"{a.counter} writes"
    if a.app == "collection":
        return f"size {a.size}, {a.elements} elements"
    if a.app == "stock":
        return f"stock {a.stock}"
    return ""


# --- formatting ----------------------------------------------------------------


def seconds(ns: float) -> float:
    return ns / NS_PER_S


def fmt_duration(ns: int, signed: bool = False) -> str:
    """15000000000 -> "15 s", 250000000 -> "250 ms"; signed adds "+"."""
    sign = "-" if ns < 0 else ("+" if signed else "")
    a = abs(ns)
    for unit, scale in (("s", NS_PER_S), ("ms", 1_000_000), ("µs", 1_000)):
        if a >= scale:
            return f"{sign}{a / scale:.3f}".rstrip("0").rstrip(".") + f" {unit}"
    return f"{sign}{a} ns"


def fmt_time(ns: int) -> str:
    """A true instant: "11.001 s"."""
    return f"{ns / NS_PER_S:.6f}".rstrip("0").rstrip(".") + " s"


def fmt_drift(ppm: int, word: str = "drift") -> str:
    """20000 -> "drift +20000 ppm (+2 %)"; word names the fault ("slew" for a clock-slew)."""
    percent = ppm / 10_000
    pct = f"{percent:+.3f}".rstrip("0").rstrip(".")
    return f"{word} {ppm:+d} ppm ({pct} %)"
