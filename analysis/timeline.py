"""The timeline of one run: who believed it held the lock, who really held it, when.

A lock is unsafe when three clocks disagree: the client's belief ("I hold
it"), the lock service's state ("a quorum of nodes holds your value") and what
the protected resource actually accepted. A design reviewer sees a violation
the moment those are drawn on one true-time axis — Kleppmann's GC pause is a
client bar that runs on through a grey pause long after the node's bar has
ended, with another client's bar and a late write inside it.

So the picture has one swimlane per client, per Redis node, per sentinel,
per called service and for the resource, x = true time in seconds:

- client lane: a solid bar from grant to the end of belief (its release, a
  validity check that found the lease over, a crash, or the end of the run),
  labelled with its session, fencing token and how often it was renewed; a
  hatched outline for the promised window (grant until the client's own clock
  says the validity is over — ended early by a release, as property P1 reads
  it). Lease extensions grow the window: the part they added is hatched the
  other way, each renewal is a tick down from the window's top edge, a
  failed one a red tick; a renewal after the lease had lapsed starts a new
  piece. A grant already over when acquire returned is labelled "expired at
  grant" in red. Grey pauses; crashes (X), restarts, clock faults (a slew is
  a line for as long as it lasts), and a tick per acquire attempt.
- node lane: a bar for each stretch in which the node holds a lock value,
  coloured by the client whose value it is (matched to the grant, or to the
  client that sent SET with it when that attempt never became a grant),
  labelled with whose it is and the reason it went (expired, deleted,
  overwritten, lost-in-crash, demoted; "deleted by c1" in red when another
  client's DEL removed it). A client retrying fast (Redlock's failed
  attempts on a minority) leaves many slivers: those closer together than a
  label could tell apart at the zoom shown become one dotted bar, "c2 · 11
  failed attempts". Granted values are labelled first.
- replicated deployments: node lanes are labelled with each node's first
  role, "M (master)" / "R (replica)". A replica's copy of a lock value (from
  its "replicated" lines) is a lighter, dashed bar in the owner's colour,
  "c1 · replica copy · lag 11 ms": the lag is how long after the master's bar
  began the copy arrived, the window in which a master crash loses the lock.
  Each role change is a triangle on the node's lane (up: "promoted to master,
  epoch 1 · inherits c1's value" or "· had no copy of the lock"; down:
  "demoted: replica of R, epoch 1"), and a promotion is a dashed line across
  the Redis and sentinel lanes.
- sentinel lanes (one each, or one shared lane for more than three or when
  none of them did anything): what
  each saw and did, from the messages it sent — its first
  is-master-down-by-addr (SDOWN), its request for votes, its vote,
  REPLICAOF orders and +switch-master — each a small marker, labelled above
  (seen) and below (done).
- service lanes (processes of kind "service", e.g. an identity service):
  each call as a line in the caller's colour from the call to the answer,
  "c1: answered after 30 s", over the grey of the service's pauses.
- resource lane: each operation as a dot in its client's colour, filled if
  accepted, hollow with a red edge if rejected; ops at one instant share a
  stacked label ("read stock 1 ×3 (c1, c2, c3)", "c3 decrement stock -2"). Left out
  when nothing was done to a resource and there is no application.
- a network lane, only when there are partitions or dropped messages; runs
  of drops (sentinels pinging a dead master) are one line with a count.

With ``--verdicts`` (the simulator's ``--json`` output) each violated
property gets a red vertical line at its first witness, labelled P1..P5, and
the witness texts are printed under the plot. Without it nothing is judged
here: the timeline shows facts, the checkers decide.

Everything drawn is derived by small pure functions (``belief_intervals``,
``promised_window``, ``hold_intervals``, ``group_failed_attempts``,
``pause_intervals``, ``slew_intervals``, ``initial_roles``, ``role_changes``,
``replica_copies``, ``sentinel_events``, ``service_calls``,
``message_bursts``, ``op_clusters``...) that tests check without plotting.
Very short spans are widened to a sliver so they stay visible; zoom with
``--from/--to`` to see their true width.

CLI::

    /usr/bin/python3 analysis/timeline.py TRACE.jsonl --out timeline.png [--out timeline.svg]
        [--verdicts run.json [--variant base]] [--title TEXT] [--from 0 --to 30]

Exit status: 0 drawn; 2 bad input (missing or malformed file, bad option).
"""

from __future__ import annotations

import argparse
import functools
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a script: make `analysis` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from matplotlib.figure import Figure  # noqa: E402  (no pyplot: no global state, Agg by default)
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402
from matplotlib.textpath import TextToPath  # noqa: E402
from matplotlib.ticker import AutoMinorLocator  # noqa: E402

from analysis import style  # noqa: E402
from analysis.trace import (  # noqa: E402
    BeliefEnd, Complete, Extend, Fault, Grant, Invoke, KeyDropped, KeyHeld, Message, Op, App, Promise,
    PropertyVerdict, Release, Replicated, Role, Trace, TraceError, GiveUp, load, load_verdicts)

NS_PER_S = 1_000_000_000
OUTPUT_SUFFIXES = (".png", ".svg")

# --- what is drawn: pure functions of the trace ------------------------------


@dataclass(frozen=True)
class Renewal:
    """A lease extension of a session: when it was recorded and the promise it made."""

    t: int
    promised_end_ns: Optional[int]  # the client's clock reaches the new lease end; None: never (or not traced)


@dataclass(frozen=True)
class Belief:
    """One session as its client saw it."""

    session: int
    client: str
    value: str
    token: int  # -1: no fencing token
    start_ns: int  # the grant
    end_ns: int
    end_reason: str  # released | validity-check | crashed | abandoned | run-end
    promised_end_ns: Optional[int]  # the grant's promise: the client's clock reaches the validity; None: never
    window_end_ns: Optional[int]  # the promised window as P1 reads it ends (last piece); None: never ends
    renewals: tuple[Renewal, ...] = ()  # extensions, in order
    # The promised window as P1 reads it: the instants t with grant <= t < (promise in force at t) and t before a
    # release, as [start, end) pieces (end None: never ends). One piece unless a lapsed lease was extended again.
    window: tuple[tuple[int, Optional[int]], ...] = ()

    @property
    def expired_at_grant(self) -> bool:
        """Acquire returned a lease already over on the client's own clock (node-redlock's first-attempt bug)."""
        return self.promised_end_ns is not None and self.promised_end_ns <= self.start_ns


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


@dataclass(frozen=True)
class Span:
    """A process paused, down, or a network partition: [start_ns, end_ns)."""

    what: str  # the process, or "partition <id>"
    start_ns: int
    end_ns: int
    note: str = ""  # e.g. "no restart" / "drop"


def promised_window(start_ns: int, promised_end_ns: Optional[int], renewals: Sequence[Renewal],
                    released_ns: Optional[int]) -> tuple[tuple[int, Optional[int]], ...]:
    """The promised window as property P1 reads it, as [start, end) pieces (end None: never ends).

    At instant t the window ends at the promise of the latest renewal recorded
    at or before t, else the grant's; so each renewal moves the end from its own
    instant on, never backwards in time. A release closes the window for good.
    A renewal of a lease that had already lapsed reopens it: a new piece.
    """
    def earlier(a: Optional[int], b: Optional[int]) -> Optional[int]:
        return b if a is None else a if b is None else min(a, b)

    steps = [(start_ns, promised_end_ns)] + [(r.t, r.promised_end_ns) for r in renewals if r.t >= start_ns]
    pieces: list[tuple[int, Optional[int]]] = []
    for i, (since, end) in enumerate(steps):
        if released_ns is not None and since >= released_ns:
            break
        until = steps[i + 1][0] if i + 1 < len(steps) else None
        stop = earlier(earlier(end, until), released_ns)
        if stop is not None and stop <= since:
            continue  # lapsed during this step
        if pieces and pieces[-1][1] == since:
            pieces[-1] = (pieces[-1][0], stop)
        else:
            pieces.append((since, stop))
    return tuple(pieces)


def belief_intervals(trace: Trace) -> list[Belief]:
    """Each grant's belief: until its belief-end, release or a crash of its client, else the run's end.

    Each also carries its renewals and its promised window (``promised_window``).
    """
    ended: dict[int, BeliefEnd] = {}
    released: dict[int, int] = {}
    for r in trace.of(BeliefEnd, Release):
        if isinstance(r, BeliefEnd):
            ended.setdefault(r.session, r)
        else:
            released.setdefault(r.session, r.t)
    # A grant's promise by session; an extension's matched to its extend line by order within the session (the
    # world writes promise lines in the order of the facts they belong to).
    promised: dict[int, Optional[int]] = {}
    extension_promises: dict[int, list[Optional[int]]] = {}
    for p in trace.of(Promise):
        if p.origin == "extend":
            extension_promises.setdefault(p.session, []).append(p.promised_end)
        else:
            promised.setdefault(p.session, p.promised_end)
    renewals: dict[int, list[Renewal]] = {}
    for e in trace.of(Extend):
        own = renewals.setdefault(e.session, [])
        ends = extension_promises.get(e.session, [])
        own.append(Renewal(e.t, ends[len(own)] if len(own) < len(ends) else None))
    crashes: dict[str, list[int]] = {}
    for f in trace.of(Fault):
        if f.fault == "crash" and f.target is not None:
            crashes.setdefault(f.target, []).append(f.t)
    run_end = trace.end_ns
    beliefs = []
    for g in trace.of(Grant):
        # (time, rank, reason): at equal times the recorded belief-end names the reason.
        candidates = []
        if g.session in ended:
            candidates.append((ended[g.session].t, 0, ended[g.session].reason))
        if g.session in released:
            candidates.append((released[g.session], 1, "released"))
        crash = next((t for t in crashes.get(g.client, []) if t >= g.t), None)
        if crash is not None:
            candidates.append((crash, 2, "crashed"))
        end_ns, _, reason = min(candidates) if candidates else (run_end, 3, "run-end")
        promised_end = promised.get(g.session)
        own_renewals = tuple(renewals.get(g.session, ()))
        window = promised_window(g.t, promised_end, own_renewals, released.get(g.session))
        window_end = window[-1][1] if window else g.t
        beliefs.append(Belief(session=g.session, client=g.client, value=g.value, token=g.token, start_ns=g.t,
                              end_ns=end_ns, end_reason=reason, promised_end_ns=promised_end,
                              window_end_ns=window_end, renewals=own_renewals, window=window))
    return beliefs


def failed_renewals(trace: Trace) -> list[Complete]:
    """Extension requests that did not succeed (fail, or info: the client never heard): the lease was not renewed."""
    return [c for c in trace.of(Complete) if c.kind == "extend" and c.outcome != "ok"]


def value_owners(trace: Trace) -> dict[str, tuple[str, Optional[int]]]:
    """Lock value -> (client, session): from grants, else from the client whose SET carried it."""
    owners: dict[str, tuple[str, Optional[int]]] = {}
    clients = set(trace.clients)
    held = {h.value for h in trace.of(KeyHeld)} | {r.value for r in trace.of(Replicated)}
    for m in trace.of(Message):
        if m.type != "send" or m.sender not in clients:
            continue
        for word in m.msg.split():
            if word in held and word not in owners:
                owners[word] = (m.sender, None)
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
            if r.type == "deliver" and r.msg.startswith(("DEL ", "EVAL compare-and-delete ")):
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
    holds.sort(key=lambda h: (h.node, h.start_ns))
    return holds


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


def pause_intervals(trace: Trace) -> list[Span]:
    """Each process's pauses: from the pause until its resume (or a crash), else until pause + amount.

    A pause that arrives while the process is already paused extends the
    planned end; the recorded resume is what ends it.
    """
    open_: dict[str, list[int]] = {}
    spans: list[Span] = []
    for f in trace.of(Fault):
        if f.target is None:
            continue
        if f.fault == "pause":
            if f.target in open_:
                open_[f.target][1] = max(open_[f.target][1], f.t + f.amount)
            else:
                open_[f.target] = [f.t, f.t + f.amount]
        elif f.fault in ("resume", "crash") and f.target in open_:
            start, _ = open_.pop(f.target)
            spans.append(Span(f.target, start, f.t, "" if f.fault == "resume" else "ended by crash"))
    run_end = trace.end_ns
    for target, (start, planned) in open_.items():
        spans.append(Span(target, start, min(planned, run_end), "no resume recorded"))
    spans.sort(key=lambda s: (s.what, s.start_ns))
    return spans


def down_intervals(trace: Trace) -> list[Span]:
    """Each process's crashed stretches: from the crash until its restart, else the run's end."""
    open_: dict[str, int] = {}
    spans: list[Span] = []
    for f in trace.of(Fault):
        if f.target is None:
            continue
        if f.fault == "crash" and f.target not in open_:
            open_[f.target] = f.t
        elif f.fault == "restart" and f.target in open_:
            spans.append(Span(f.target, open_.pop(f.target), f.t))
    for target, start in open_.items():
        spans.append(Span(target, start, trace.end_ns, "no restart"))
    spans.sort(key=lambda s: (s.what, s.start_ns))
    return spans


def partition_intervals(trace: Trace) -> list[Span]:
    """Each network partition (by id) from its start to its heal, else the run's end."""
    open_: dict[int, tuple[int, str]] = {}
    spans: list[Span] = []
    for f in trace.of(Fault):
        if f.fault == "partition":
            open_[f.amount] = (f.t, f.mode or "drop")
        elif f.fault == "heal" and f.amount in open_:
            start, mode = open_.pop(f.amount)
            spans.append(Span(f"partition {f.amount}", start, f.t, mode))
    for pid, (start, mode) in open_.items():
        spans.append(Span(f"partition {pid}", start, trace.end_ns, mode))
    spans.sort(key=lambda s: s.start_ns)
    return spans


def slew_intervals(trace: Trace) -> list[Span]:
    """Each clock slew: from its clock-slew fault until the next clock-drift or clock-slew on the same clock (the
    world records a slew's end as a clock-drift back to the old rate), else the run's end. note: the ppm, as text.
    """
    open_: dict[str, tuple[int, int]] = {}
    spans: list[Span] = []
    for f in trace.of(Fault):
        if f.target is None or f.fault not in ("clock-slew", "clock-drift"):
            continue
        if f.target in open_:
            start, ppm = open_.pop(f.target)
            spans.append(Span(f.target, start, f.t, str(ppm)))
        if f.fault == "clock-slew":
            open_[f.target] = (f.t, f.amount)
    for target, (start, ppm) in open_.items():
        spans.append(Span(target, start, trace.end_ns, str(ppm)))
    spans.sort(key=lambda s: (s.what, s.start_ns))
    return spans


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


def cluster_lines(cluster: Sequence[tuple[Op, Optional[App]]], limit: int = 4) -> list[tuple[str, bool]]:
    """A cluster's label as (line, rejected) pairs in time order, one line per op with its client ("c2 decrement
    stock -1"), except that a run of ops alike (same op, same outcome, same state after) is one line ("read stock 1
    ×3 (c1, c2, c3)"). More than ``limit`` lines keep the first and the last ones around an ellipsis."""
    def outcome(op: Op, app: Optional[App]) -> str:
        if not op.accepted:
            return f"{op.op} ✗ {op.reject}"
        return f"{op.op} {app_note(app)}" if app_note(app) else op.op

    runs: list[list[tuple[Op, str]]] = []
    for op, app in cluster:
        text = outcome(op, app)
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


# --- replication, Sentinel and services ---------------------------------------------


def _role_in_message(msg: str) -> Optional[str]:
    """The role a Redis node's own message shows it in: it ships a stream or says PONG (master) -> master; it acks a
    stream, attaches or says PONG (replica of ...) -> replica."""
    if msg.startswith(("repl ", "PONG (master)")):
        return "master"
    if msg.startswith(("PONG (replica of", "REPLCONF ACK", "PSYNC")):
        return "replica"
    return None


def initial_roles(trace: Trace) -> dict[str, str]:
    """Each Redis node's role when the run began, "master" or "replica"; {} when nothing is replicated.

    Before its first role line a node shows its role by what it does: a master records key-held, ships
    ``repl ...`` entries and answers PONG (master); a replica records ``replicated`` lines, acks and attaches.
    Without such evidence the first role line tells (promoted: was a replica; demoted with a key-dropped "demoted":
    was a master), and last the header's order (the master comes first among the service nodes).
    """
    nodes = trace.nodes
    changed: set[str] = set()
    evidence: dict[str, str] = {}
    first_role: dict[str, Role] = {}
    demoted = {r.node for r in trace.of(KeyDropped) if r.reason == "demoted"}
    replicated = False
    for r in trace.records:
        node, role = None, None
        if isinstance(r, Role):
            replicated = True
            changed.add(r.node)
            first_role.setdefault(r.node, r)
            continue
        if isinstance(r, Replicated):
            replicated = True
            node, role = r.node, "replica"
        elif isinstance(r, KeyHeld):
            node, role = r.node, "master"
        elif isinstance(r, Message) and r.type == "send" and r.sender in nodes:
            node, role = r.sender, _role_in_message(r.msg)
            replicated = replicated or role is not None
        if node is not None and role is not None and node not in changed:
            evidence.setdefault(node, role)
    if not replicated:
        return {}
    roles: dict[str, str] = {}
    for i, n in enumerate(nodes):
        if n in evidence:
            roles[n] = evidence[n]
        elif n in first_role:
            first = first_role[n]
            roles[n] = "replica" if first.role == "master" else ("master" if n in demoted or i == 0 else "replica")
        else:
            roles[n] = "master" if i == 0 else "replica"
    return roles


@dataclass(frozen=True)
class RoleChange:
    """A Redis node's role line, with the role it had before."""

    t: int
    node: str
    role: str  # master | replica
    master: Optional[str]  # role replica: the node it now follows
    epoch: int
    before: Optional[str]  # master | replica | None (unknown)

    @property
    def promotion(self) -> bool:
        return self.role == "master" and self.before != "master"

    @property
    def text(self) -> str:
        if self.role == "master":
            return f"promoted to master, epoch {self.epoch}" if self.promotion else f"master, epoch {self.epoch}"
        if self.before == "master":
            return f"demoted: replica of {self.master}, epoch {self.epoch}"
        return f"now replica of {self.master}, epoch {self.epoch}"


def role_changes(trace: Trace) -> list[RoleChange]:
    """Every role line in order, each knowing the role before it (``initial_roles``, then the previous change)."""
    current: dict[str, Optional[str]] = dict(initial_roles(trace))
    changes = []
    for r in trace.of(Role):
        changes.append(RoleChange(r.t, r.node, r.role, r.master, r.epoch, current.get(r.node)))
        current[r.node] = r.role
    return changes


@dataclass(frozen=True)
class ReplicaCopy:
    """A stretch in which a replica's copy of a key holds one lock value (from its master's stream)."""

    node: str
    key: str
    value: str
    start_ns: int
    end_ns: int
    # deleted (a replicated DEL) | overwritten | full resync | promoted (the copy became the node's own hold) |
    # lost-in-crash | removed (no cause seen); None: still there when the run ended
    reason: Optional[str]
    client: Optional[str]
    session: Optional[int]
    via: str  # stream (an entry of the master's stream) | resync (the snapshot of a full resynchronisation)
    lag_ns: Optional[int]  # stream copies: start minus the start of the same value's hold on a master; None: unknown


def _repl_offset(msg: str) -> Optional[int]:
    at = msg.rfind(" @")
    try:
        return int(msg[at + 2:]) if at >= 0 else None
    except ValueError:
        return None


def replica_copies(trace: Trace) -> list[ReplicaCopy]:
    """Each replica's copies of lock values, from its ``replicated`` lines: from present=true until present=false,
    a different value, the node's promotion (its own hold starts there) or its crash, else the run's end.

    The lag of a copy from the stream is how long after the master began to hold the value it reached the replica:
    asynchronous replication's window, in which a crash of the master loses the lock. A copy that came with a full
    resynchronisation's snapshot (its entry carries the flush's offset) has no lag: the replica attached late.
    """
    owners = value_owners(trace)
    holds = hold_intervals(trace)
    open_: dict[tuple[str, str], tuple[int, str, str]] = {}
    last_repl: dict[str, tuple[int, str]] = {}  # node -> (when, text) of the last stream entry delivered to it
    flush_at: dict[str, Optional[int]] = {}  # node -> offset of the last full resync it received
    copies: list[ReplicaCopy] = []

    def close(node: str, key: str, end_ns: int, reason: Optional[str]) -> None:
        start, value, via = open_.pop((node, key))
        client, session = owners.get(value, (None, None))
        lag = None
        if via == "stream":
            starts = [h.start_ns for h in holds
                      if h.key == key and h.value == value and h.node != node and h.start_ns <= start]
            lag = start - max(starts) if starts else None
        copies.append(ReplicaCopy(node, key, value, start, end_ns, reason, client, session, via, lag))

    for r in trace.of(Message, Replicated, Role, Fault):
        if isinstance(r, Message):
            if r.type == "deliver" and r.msg.startswith("repl "):
                last_repl[r.receiver] = (r.t, r.msg)
                if r.msg.startswith("repl FLUSHALL"):
                    flush_at[r.receiver] = _repl_offset(r.msg)
        elif isinstance(r, Replicated):
            k = (r.node, r.key)
            if r.present:
                if k in open_:
                    if open_[k][1] == r.value:
                        continue
                    close(r.node, r.key, r.t, "overwritten")
                resync = r.node in flush_at and flush_at[r.node] == r.offset
                open_[k] = (r.t, r.value, "resync" if resync else "stream")
            elif k in open_:
                when, text = last_repl.get(r.node, (None, ""))
                reason = "removed"
                if when == r.t:
                    reason = ("full resync" if text.startswith("repl FLUSHALL") else
                              "deleted" if text.startswith("repl DEL") else
                              "overwritten" if text.startswith("repl SET") else "removed")
                close(r.node, r.key, r.t, reason)
        elif isinstance(r, Role):
            if r.role == "master":
                for node, key in [k for k in open_ if k[0] == r.node]:
                    close(node, key, r.t, "promoted")
        elif r.fault == "crash" and r.target is not None:
            for node, key in [k for k in open_ if k[0] == r.target]:
                close(node, key, r.t, "lost-in-crash")
    for node, key in list(open_):
        close(node, key, trace.end_ns, None)
    copies.sort(key=lambda c: (c.node, c.start_ns))
    return copies


@dataclass(frozen=True)
class SentinelEvent:
    """What a sentinel did that shows its view of the master, read from the messages it sent.

    kind: sdown (its first is-master-down-by-addr about a master: it sees it down and asks its peers), ask-votes
    (a failover of its own: asks for votes in an epoch), vote (answers a candidate with its vote), promote
    (REPLICAOF NO ONE to a replica), reconfigure (REPLICAOF <master> to a node), switch (+switch-master: it
    now takes another node for the master and tells the clients).
    """

    t: int
    sentinel: str
    kind: str
    subject: str  # sdown: the master; vote: the sentinel voted for; promote / reconfigure: the node; switch: new master
    epoch: Optional[int] = None
    detail: str = ""  # reconfigure: the master it is pointed at; switch: the old master

    @property
    def text(self) -> str:
        if self.kind == "sdown":
            return f"{self.subject} down (SDOWN)"
        if self.kind == "ask-votes":
            return f"failover, epoch {self.epoch}: asks votes"
        if self.kind == "vote":
            return f"votes {self.subject}" + (f", epoch {self.epoch}" if self.epoch is not None else "")
        if self.kind == "promote":
            return f"REPLICAOF NO ONE → {self.subject}"
        if self.kind == "reconfigure":
            return f"REPLICAOF {self.detail} → {self.subject}"
        if self.kind == "switch":
            return f"+switch-master {self.detail} → {self.subject}"
        return self.kind


SENTINEL_EVENT_KINDS = ("sdown", "ask-votes", "vote", "promote", "reconfigure", "switch")


def sentinel_events(trace: Trace) -> list[SentinelEvent]:
    """Each sentinel's view of the failover, from the messages it sent, each event once: the first
    is-master-down-by-addr about a master (SDOWN, asks its peers), the first vote request of each epoch, each vote
    (epoch from the candidate's request), each REPLICAOF order, each +switch-master (the hellos that repeat it to
    the peers are not news). After a sentinel switches, the same kinds of events count again.
    """
    sentinels = set(trace.sentinels)
    events: list[SentinelEvent] = []
    seen: set[tuple] = set()
    generation: dict[str, int] = {}  # a sentinel's switches so far
    asked_epoch: dict[tuple[str, str], int] = {}  # (sentinel, candidate) -> epoch of the candidate's last vote request

    def once(key: tuple, event: SentinelEvent) -> None:
        if key not in seen:
            seen.add(key)
            events.append(event)

    for m in trace.of(Message):
        words = m.msg.split()
        if m.type == "deliver" and m.msg.startswith("is-master-down-by-addr") and m.msg.endswith("(vote?)"):
            if len(words) >= 4 and words[3].isdigit():
                asked_epoch[(m.receiver, m.sender)] = int(words[3])
            continue
        if m.type != "send" or m.sender not in sentinels:
            continue
        s, gen = m.sender, generation.get(m.sender, 0)
        if m.msg.startswith("is-master-down-by-addr ") and len(words) >= 4:
            master = words[1]
            epoch = int(words[3]) if words[3].isdigit() else None
            once(("sdown", s, master, gen), SentinelEvent(m.t, s, "sdown", master, epoch))
            if m.msg.endswith("(vote?)"):
                once(("ask-votes", s, epoch), SentinelEvent(m.t, s, "ask-votes", master, epoch))
        elif len(words) == 3 and words[0] in ("down,", "up,") and words[1] == "vote" and words[2] != "?":
            epoch = asked_epoch.get((s, m.receiver))
            key = ("vote", s, epoch) if epoch is not None else ("vote", s, words[2], gen)
            once(key, SentinelEvent(m.t, s, "vote", words[2], epoch))
        elif m.msg == "REPLICAOF NO ONE":
            once(("promote", s, m.receiver, gen), SentinelEvent(m.t, s, "promote", m.receiver))
        elif m.msg.startswith("REPLICAOF ") and len(words) == 2:
            once(("reconfigure", s, m.receiver, words[1], gen),
                 SentinelEvent(m.t, s, "reconfigure", m.receiver, detail=words[1]))
        elif m.msg.startswith("+switch-master ") and len(words) == 4:
            key = ("switch", s, words[1], words[3])
            if key not in seen:
                once(key, SentinelEvent(m.t, s, "switch", words[3], detail=words[1]))
                generation[s] = gen + 1
    return events


@dataclass(frozen=True)
class ServiceCall:
    """A client's call to a service: sent, arrived (the service took it in), answered, and the answer received."""

    service: str
    client: str
    called_ns: int
    arrived_ns: Optional[int]  # None: never reached it (still queued behind a pause, or lost)
    answered_ns: Optional[int]  # None: never answered within the run
    received_ns: Optional[int]


def service_calls(trace: Trace) -> list[ServiceCall]:
    """Each "call" a client sent to a service, matched in order per (client, service) with the service's "answer"
    (a client has one call out at a time). A call to a paused service arrives only when it resumes."""
    services = set(trace.services)
    calls: list[dict] = []
    pending: dict[tuple[str, str], list[dict]] = {}

    def first(key: tuple[str, str], field_: str) -> Optional[dict]:
        return next((c for c in pending.get(key, []) if c[field_] is None), None)

    for m in trace.of(Message):
        if m.msg == "call" and m.receiver in services:
            key = (m.sender, m.receiver)
            if m.type == "send":
                c = dict(service=m.receiver, client=m.sender, called_ns=m.t, arrived_ns=None, answered_ns=None,
                         received_ns=None)
                calls.append(c)
                pending.setdefault(key, []).append(c)
            elif m.type == "deliver" and (c := first(key, "arrived_ns")) is not None:
                c["arrived_ns"] = m.t
        elif m.msg == "answer" and m.sender in services:
            key = (m.receiver, m.sender)
            if m.type == "send" and (c := first(key, "answered_ns")) is not None:
                c["answered_ns"] = m.t
            elif m.type == "deliver" and (c := first(key, "received_ns")) is not None:
                c["received_ns"] = m.t
    return [ServiceCall(**c) for c in calls]


DROPPED_TYPES = ("lost", "partition-drop", "drop-crashed")
NETWORK_TYPES = DROPPED_TYPES + ("partition-hold",)


def message_bursts(trace: Trace, gap_ns: int) -> list[tuple[str, list[Message]]]:
    """Dropped and held messages as the network lane draws them: ("dropped" | "held", messages), each a run whose
    messages are at most ``gap_ns`` apart — sentinels pinging a dead or cut-off master every 50 ms are one burst,
    not hundreds of crosses."""
    bursts: list[tuple[str, list[Message]]] = []
    last: dict[str, list[Message]] = {}
    for m in trace.of(Message):
        if m.type not in NETWORK_TYPES:
            continue
        kind = "held" if m.type == "partition-hold" else "dropped"
        run = last.get(kind)
        if run is not None and m.t - run[-1].t <= gap_ns:
            run.append(m)
            continue
        run = [m]
        last[kind] = run
        bursts.append((kind, run))
    return bursts


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


# --- drawing ---------------------------------------------------------------------


@dataclass(frozen=True)
class Lane:
    name: str  # the process it belongs to (or "network", "sentinels")
    group: str  # client | redis | sentinel | service | resource | other | network
    y: float
    label: str = ""  # what the axis says, if not the name: "M (master)"

    @property
    def text(self) -> str:
        return self.label or self.name


# Vertical layout inside a lane of height 1 centred on y.
BELIEF_H = 0.26
WINDOW_H = 0.48
HOLD_H = 0.36
COPY_H = 0.30
SHADE_H = 0.92
REASON_BOX = dict(facecolor="white", edgecolor="none", pad=0.2, alpha=0.75)
# Label rows: (offset from the lane's centre, vertical alignment).
ROW_TOP = (0.29, "bottom")
ROW_MID = (0.0, "center")
ROW_LOW = (-0.37, "center")
MIN_WIDTH_FRACTION = 0.004  # of the window: narrower spans are widened to stay visible

# Sentinel events: a marker each (drawn on the lane's centre line) and what the legend says.
SENTINEL_MARKS = {
    "sdown": dict(marker="o", ms=5.5, mfc="white", mec=style.ROLE, mew=1.2, color=style.ROLE),
    "ask-votes": dict(marker="s", ms=5, mfc=style.ROLE, mec="white", mew=0.5, color=style.ROLE),
    "vote": dict(marker="$\u2713$", ms=7, color=style.ROLE),
    "promote": dict(marker="*", ms=10, mfc=style.ROLE, mec="white", mew=0.5, color=style.ROLE),
    "reconfigure": dict(marker="P", ms=6.5, mfc=style.ROLE, mec="white", mew=0.5, color=style.ROLE),
    "switch": dict(marker="d", ms=6.5, mfc="white", mec=style.ROLE, mew=1.2, color=style.ROLE),
}
SENTINEL_LEGEND = {
    "sdown": "sentinel sees the master down (SDOWN)",
    "ask-votes": "sentinel starts a failover, asks votes",
    "vote": "sentinel votes for a leader",
    "promote": "sentinel: REPLICAOF NO ONE (promote)",
    "reconfigure": "sentinel: REPLICAOF <master>",
    "switch": "sentinel: +switch-master (new master)",
}

LANE_INCH = 0.68
FIG_WIDTH = 12.5
LEFT_INCH, RIGHT_INCH = 1.45, 2.55  # the left margin grows with long lane names
TOP_INCH, BOTTOM_INCH = 1.0, 0.55
WITNESS_LINE_INCH = 0.19
MAX_SENTINEL_LANES = 3  # more sentinels than this share one lane
SENTINEL_CLUSTER_CHARS = 6  # sentinel events closer than this many 7-pt characters share one label


def _lanes(trace: Trace, has_network: bool) -> list[Lane]:
    """Top down: clients, Redis nodes (labelled with their first role when replicated), sentinels, services,
    other processes with faults, the resource (when anything was done to it), the network."""
    roles = initial_roles(trace)
    names: list[tuple[str, str, str]] = [(c, "client", "") for c in trace.clients]
    names += [(n, "redis", f"{n} ({roles[n]})" if n in roles else "") for n in trace.nodes]
    sentinels = trace.sentinels
    # Sentinels that did nothing worth a mark (no master down, no failover, no fault on them) share one lane.
    quiet = not sentinel_events(trace) and not any(f.target in sentinels for f in trace.of(Fault))
    if len(sentinels) > MAX_SENTINEL_LANES or (quiet and len(sentinels) > 1):
        names.append(("sentinels", "sentinel", f"sentinels ×{len(sentinels)}"))
    else:
        names += [(s, "sentinel", "") for s in sentinels]
    names += [(s, "service", "") for s in trace.services]
    fault_targets = {f.target for f in trace.of(Fault) if f.target}
    names += [(p.name, "other", "") for p in trace.run.processes if p.kind == "other" and p.name in fault_targets]
    # Op lines do not name their resource: one lane holds them all. Without ops and without an application the
    # lane would stay empty (a control-plane story): left out.
    if trace.of(Op) or trace.run.app != "none":
        resources = trace.resources or ["resource"]
        names += [(r, "resource", "") for r in resources[:1]]
    if has_network:
        names.append(("network", "network", ""))
    n = len(names)
    return [Lane(name, group, float(n - 1 - i), label) for i, (name, group, label) in enumerate(names)]


@functools.lru_cache(maxsize=4096)
def _text_points(s: str, fontsize: float, bold: bool) -> float:
    """The advance width of s in DejaVu Sans at fontsize, in points."""
    prop = FontProperties(family="DejaVu Sans", size=fontsize, weight="bold" if bold else "normal")
    return _TEXT_TO_PATH.get_text_width_height_descent(s, prop, ismath=False)[0]


_TEXT_TO_PATH = TextToPath()


class _Painter:
    """Draws one trace onto one axes; remembers what the legend must explain.

    Labels sit on fixed rows of their lane (above the bars, on the bar line,
    below) and never overlap: one that would collide with an earlier label on
    every row it may use is left out — the colour still says whose it is.
    """

    def __init__(self, fig: Figure, ax, trace: Trace, lanes: list[Lane], x0: float, x1: float, axes_w_in: float):
        self.fig, self.ax, self.trace = fig, ax, trace
        self.lane = {l.name: l for l in lanes}
        self.x0, self.x1 = x0, x1
        self.span = x1 - x0
        self.colour = {c: style.client_colour(i) for i, c in enumerate(trace.clients)}
        self.used: set[str] = set()
        self.seconds_per_inch = self.span / axes_w_in
        self.taken: dict[tuple[str, float], list[tuple[float, float]]] = {}
        self.crashes = {(f.target, f.t) for f in trace.of(Fault) if f.fault == "crash"}
        # Processes drawn on a lane named otherwise: sentinels sharing one lane.
        self.alias = {s: "sentinels" for s in trace.sentinels} if "sentinels" in self.lane else {}
        self.lanes = lanes
        # Every bar a node lane will carry (holds and replica copies), as drawn: a reason label does not go on top
        # of the next bar.
        self.hold_list = hold_intervals(trace)
        self.copy_list = replica_copies(trace)
        self.changes = role_changes(trace)
        self.bars: dict[str, list[tuple[float, float]]] = {}
        for b in [*self.hold_list, *self.copy_list]:
            self.bars.setdefault(b.node, []).append(self.widened(seconds(b.start_ns), seconds(b.end_ns)))

    def lane_of(self, process: Optional[str]) -> Optional[Lane]:
        if process is None:
            return None
        return self.lane.get(self.alias.get(process, process))

    def colour_of(self, client: Optional[str]) -> str:
        if client is None:
            return style.NOTE
        if client not in self.colour:  # a client missing from the header
            self.colour[client] = style.client_colour(len(self.colour))
        return self.colour[client]

    def char_w(self, fontsize: float = 7) -> float:
        """The width of an average character of DejaVu Sans at fontsize, in seconds of the x axis."""
        return 0.6 * fontsize / 72 * self.seconds_per_inch

    def text_w(self, s: str, fontsize: float = 7, bold: bool = False) -> float:
        """The width of s as drawn, in seconds of the x axis (measured: "SDOWN" is wider than "votes")."""
        return _text_points(s, fontsize, bold) / 72 * self.seconds_per_inch

    def visible(self, a: float, b: float) -> bool:
        return b >= self.x0 and a <= self.x1

    def widened(self, a: float, b: float) -> tuple[float, float]:
        return a, max(b, a + MIN_WIDTH_FRACTION * self.span)

    def rect(self, a: float, b: float, y: float, h: float, **kw) -> None:
        a, b = self.widened(a, b)
        self.ax.add_patch(Rectangle((a, y - h / 2), b - a, h, **kw))

    def after(self, process: str, start_s: float, end_ns: int) -> float:
        """Where text following a span starts: after it as drawn (widened), clear of a crash marker at its end."""
        gap = 1.9 if (process, end_ns) in self.crashes else 0.5
        return self.widened(start_s, seconds(end_ns))[1] + gap * self.char_w()

    def label(self, lane: Lane, rows: Sequence[tuple[float, str]], x: float, s: str, ha: str = "left",
              fontsize: float = 7, **kw) -> bool:
        """Writes s at x on the first of rows ((dy, va) pairs) where it overlaps no earlier label."""
        width = self.text_w(s, fontsize, kw.get("fontweight") == "bold") + 0.6 * self.char_w(fontsize)
        left = {"left": x, "center": x - width / 2, "right": x - width}[ha]
        if left < self.x0:  # keep the start of a label on screen
            x, left = x + (self.x0 - left), self.x0
        if left > self.x1:
            return False
        overhang = left + width - self.x1
        if overhang > 0:  # and its end, if it can start earlier without leaving the window
            shift = min(overhang, left - self.x0)
            x, left = x - shift, left - shift
        for dy, va in rows:
            key = (lane.name, round(dy, 3))
            spans = self.taken.setdefault(key, [])
            if any(left < b and a < left + width for a, b in spans):
                continue
            spans.append((left, left + width))
            kw.setdefault("color", style.NOTE)
            self.ax.text(x, lane.y + dy, s, ha=ha, va=va, fontsize=fontsize, clip_on=True, zorder=6, **kw)
            return True
        return False

    # lanes ---------------------------------------------------------------------

    def backgrounds(self, lanes: list[Lane]) -> None:
        for i, l in enumerate(lanes):
            if i % 2 == 0:
                self.ax.axhspan(l.y - 0.5, l.y + 0.5, color=style.LANE_SHADE, zorder=0, lw=0)
        for upper, lower in zip(lanes, lanes[1:]):
            if upper.group != lower.group:
                self.ax.axhline(lower.y + 0.5, color="#A0A0A0", lw=0.8, zorder=1)

    def shades(self) -> None:
        for kind, spans in (("pause", pause_intervals(self.trace)), ("down", down_intervals(self.trace))):
            for s in spans:
                lane = self.lane_of(s.what)
                start, end = seconds(s.start_ns), seconds(s.end_ns)
                if lane is None or not self.visible(start, end):
                    continue
                self.used.add(kind)
                if kind == "pause":
                    self.rect(start, end, lane.y, SHADE_H, facecolor=style.PAUSE, lw=0, zorder=1)
                    note = f"paused {fmt_duration(s.end_ns - s.start_ns)}"
                else:
                    self.rect(start, end, lane.y, SHADE_H, facecolor="white", edgecolor=style.DOWN, hatch="x", lw=0,
                              zorder=1)
                    note = f"down {fmt_duration(s.end_ns - s.start_ns)}" + (" (no restart)" if s.note else "")
                mid = (max(start, self.x0) + min(end, self.x1)) / 2
                self.label(lane, [ROW_LOW], mid, note, ha="center", style="italic", color="#303030",
                           bbox=dict(facecolor=style.PAUSE if kind == "pause" else "white", edgecolor="none", pad=0.4))

    def beliefs(self) -> None:
        for b in belief_intervals(self.trace):
            lane = self.lane.get(b.client)
            if lane is None:
                continue
            colour = self.colour_of(b.client)
            start, end = seconds(b.start_ns), seconds(b.end_ns)
            # The promised window, piece by piece: what the grant promised hatched one way, what renewals added the
            # other way, a tick at each renewal; a renewal after the lease had lapsed starts a new piece.
            grant_end = seconds(b.promised_end_ns) if b.promised_end_ns is not None else None
            for a_ns, b_ns in b.window:
                a, z = seconds(a_ns), (seconds(b_ns) if b_ns is not None else max(self.x1, end))
                if a_ns != b.start_ns:
                    split = a  # reopened by a renewal: all of it is the renewal's
                else:
                    split = z if grant_end is None else min(max(grant_end, a), z)
                for lo, hi, hatch, key in ((a, split, "////", "window"), (split, z, "\\\\\\\\", "extended")):
                    if hi > lo and self.visible(lo, hi):
                        self.used.add(key)
                        self.rect(lo, hi, lane.y, WINDOW_H, facecolor="none", edgecolor=colour, hatch=hatch, lw=0.9,
                                  alpha=0.8, zorder=2)
            self.renewal_ticks(lane, b)
            if not self.visible(start, end):
                continue
            self.used.add("belief")
            self.rect(start, end, lane.y, BELIEF_H, facecolor=colour, edgecolor="black", lw=0.5, zorder=3)
            label = f"session {b.session}" + (f" · token {b.token}" if b.token >= 0 else "")
            if b.renewals:
                label += f" · renewed ×{len(b.renewals)}"
            if b.expired_at_grant:
                label += " · expired at grant"
            self.label(lane, [ROW_TOP], start, label, color=style.VIOLATION if b.expired_at_grant else "black",
                       fontsize=7.5)
            if b.end_reason == "run-end":
                self.label(lane, [ROW_MID], min(end, self.x1) - 0.5 * self.char_w(), "believes to the end ▸",
                           ha="right", fontsize=6.5, color=style.text_on(colour), fontweight="bold")
            elif end <= self.x1:
                self.label(lane, [ROW_MID, ROW_TOP, ROW_LOW], self.after(b.client, start, b.end_ns), b.end_reason,
                           fontsize=6.5, bbox=REASON_BOX)

    def renewal_ticks(self, lane: Lane, b: Belief) -> None:
        """A short tick down from the window's top edge at each renewal, clear of the labels above it."""
        top = lane.y + WINDOW_H / 2
        for r in b.renewals:
            x = seconds(r.t)
            if self.x0 <= x <= self.x1:
                self.used.add("renewal")
                self.ax.plot([x], [top], marker=3, ms=5, mew=1.6, color="black", zorder=6)

    def failed_renewal_ticks(self) -> None:
        for c in failed_renewals(self.trace):
            lane = self.lane.get(c.client)
            x = seconds(c.t)
            if lane is None or not self.x0 <= x <= self.x1:
                continue
            self.used.add("renewal-failed")
            self.ax.plot([x], [lane.y + WINDOW_H / 2], marker=3, ms=5, mew=1.6, color=style.VIOLATION, zorder=6)
            what = "renewal failed" if c.outcome == "fail" else "renewal unanswered"
            self.label(lane, [ROW_TOP], x + 0.6 * self.char_w(), what, fontsize=6.5, color=style.VIOLATION)

    def attempts(self) -> None:
        for r in self.trace.of(Invoke, GiveUp):
            lane = self.lane.get(r.client)
            if lane is None or not self.x0 <= seconds(r.t) <= self.x1:
                continue
            if isinstance(r, Invoke) and r.kind == "acquire":
                self.used.add("attempt")
                self.ax.plot([seconds(r.t)], [lane.y + ROW_LOW[0]], marker="|", ms=7, mew=1.4,
                             color=self.colour_of(r.client), zorder=4)
            elif isinstance(r, GiveUp):
                self.label(lane, [ROW_LOW], seconds(r.t) + 0.8 * self.char_w(), "gave up", fontsize=6.5)

    def holds(self) -> None:
        # Failed attempts closer together than a short label could be told apart at this zoom are one bar (zoom in
        # with --from/--to to see them one by one).
        gap_ns = int(8 * self.char_w() * NS_PER_S)
        keys = {h.key for h in self.trace.of(KeyHeld)}
        groups = group_failed_attempts(self.hold_list, gap_ns)
        # Granted holds label first: whose value a node holds matters more than a retry's.
        groups.sort(key=lambda g: g[0].session is None)
        for group in groups:
            first, last = group[0], group[-1]
            lane = self.lane.get(first.node)
            start, end = seconds(first.start_ns), seconds(last.end_ns)
            if lane is None or not self.visible(start, end):
                continue
            self.used.add("hold")
            colour = self.colour_of(first.client)
            granted = first.session is not None
            if not granted:
                self.used.add("ungranted")
            self.rect(start, end, lane.y, HOLD_H, facecolor=colour if granted else "white", edgecolor=colour,
                      hatch=None if granted else "....", lw=0.8, alpha=0.9 if granted else 1.0, zorder=3)
            who = first.client or f"value {first.value[:6]}…"
            if granted:
                label = f"{who} · session {first.session}"
            elif len(group) > 1:
                label = f"{who} · {len(group)} failed attempts"
            else:
                label = f"{who} (no grant)"
            if len(keys) > 1:
                label += f" · {first.key}"
            self.label(lane, [ROW_TOP] if granted else [ROW_TOP, ROW_LOW], start, label, color="black")
            reason = reasons_text(group)
            colour_reason = style.NOTE
            if len(group) == 1 and first.by is not None and first.client is not None and first.by != first.client:
                reason, colour_reason = f"deleted by {first.by}", style.VIOLATION  # another client's DEL
            if reason is not None and end <= self.x1:
                self.reason_label(lane, first.node, start, last.end_ns, reason, colour if granted else None,
                                  colour_reason)

    def reason_label(self, lane: Lane, process: str, start: float, end_ns: int, reason: str,
                     fill: Optional[str], colour: str = style.NOTE) -> None:
        """Why a bar ended, as close to its end as room allows: after it, else inside its right end, else above or
        below it; it is left out only when all of those are taken."""
        after = self.after(process, start, end_ns)
        width = self.text_w(reason, 6.5) + 0.6 * self.char_w(6.5)
        blocked = any(a < after + width and after < b for a, b in self.bars.get(process, []))
        if not blocked and self.label(lane, [ROW_MID], after, reason, fontsize=6.5, bbox=REASON_BOX, color=colour):
            return
        end = seconds(end_ns)
        inside = self.text_w(reason, 6.5, bold=True) + 1.5 * self.char_w(6.5) < end - max(start, self.x0)
        if inside and fill is not None and self.label(lane, [ROW_MID], end - 0.5 * self.char_w(), reason, ha="right",
                                                       fontsize=6.5, color=style.text_on(fill), fontweight="bold"):
            return
        if inside and fill is None and self.label(lane, [ROW_MID], end - 0.5 * self.char_w(), reason, ha="right",
                                                  fontsize=6.5, bbox=REASON_BOX, color=colour):
            return
        self.label(lane, [ROW_TOP, ROW_LOW], after, reason, fontsize=6.5, bbox=REASON_BOX, color=colour)

    def fault_marks(self) -> None:
        slews = slew_intervals(self.trace)
        slew_ends = {(s.what, s.end_ns) for s in slews}
        self.slews(slews)
        for f in self.trace.of(Fault):
            lane = self.lane_of(f.target)
            x = seconds(f.t)
            if lane is None or not self.x0 <= x <= self.x1:
                continue
            if f.fault in ("crash", "restart"):  # keep the bar line's labels clear of the marker
                half = 0.8 * self.char_w()
                self.taken.setdefault((lane.name, ROW_MID[0]), []).append((x - half, x + half))
            if f.fault == "crash":
                self.used.add("crash")
                self.ax.plot([x], [lane.y], marker="X", ms=9, color=style.FAULT, mec="white", mew=0.8, zorder=7)
            elif f.fault == "restart":
                self.used.add("restart")
                self.ax.plot([x], [lane.y], marker=">", ms=7, color=style.FAULT, mec="white", mew=0.8, zorder=7)
            elif f.fault == "clock-drift" and (f.target, f.t) in slew_ends:
                continue  # the end of a slew (the rate going back), drawn with the slew
            elif f.fault in ("clock-jump", "clock-drift"):
                self.used.add("clock")
                note = f"wall clock {fmt_duration(f.amount, signed=True)}" if f.fault == "clock-jump" \
                    else fmt_drift(f.amount)
                self.ax.plot([x], [lane.y + ROW_LOW[0]], marker="D", ms=5, color=style.FAULT, zorder=7)
                self.label(lane, [ROW_LOW], x + 1.0 * self.char_w(), note, color="black",
                           bbox=dict(facecolor="white", edgecolor="none", pad=0.3, alpha=0.85))

    def slews(self, slews: list[Span]) -> None:
        """A slew under its lane: a diamond where it starts, a line while it lasts, a tick at its end, then its rate."""
        for sp in slews:
            lane = self.lane_of(sp.what)
            start, end = seconds(sp.start_ns), seconds(sp.end_ns)
            if lane is None or not self.visible(start, end):
                continue
            self.used.add("clock")
            y = lane.y + ROW_LOW[0]
            a, z = self.widened(start, end)
            self.ax.plot([a, z], [y, y], color=style.FAULT, lw=1.2, zorder=7, solid_capstyle="butt")
            self.ax.plot([z], [y], marker="|", ms=6, mew=1.2, color=style.FAULT, zorder=7)
            if self.x0 <= start <= self.x1:
                self.ax.plot([start], [y], marker="D", ms=5, color=style.FAULT, zorder=7)
            note = f"{fmt_drift(int(sp.note), 'slew')} for {fmt_duration(sp.end_ns - sp.start_ns)}"
            self.label(lane, [ROW_LOW, ROW_TOP], max(z, self.x0) + 0.8 * self.char_w(), note, color="black",
                       bbox=dict(facecolor="white", edgecolor="none", pad=0.3, alpha=0.85))

    def ops(self) -> None:
        lane = next((l for l in self.lane.values() if l.group == "resource"), None)
        if lane is None:
            return
        rows = [(0.16, "bottom"), (-0.16, "top"), (0.31, "bottom"), (-0.31, "top")]
        stacked = {1: rows[:1], 2: rows[:2], 3: [rows[2], rows[0], rows[1]], 4: [rows[2], rows[0], rows[1], rows[3]]}
        pairs = [p for p in ops_with_state(self.trace) if self.x0 <= seconds(p[0].t) <= self.x1]
        # Ops closer together than their dots can be told apart share one label, a line per op (in time order, top
        # down). Clusters that changed the application's state or had a refusal label first.
        clusters = op_clusters(pairs, int(2 * self.char_w() * NS_PER_S))
        clusters.sort(key=lambda cl: (all(app is None and op.accepted for op, app in cl), cl[0][0].t))
        for cluster in clusters:
            for op, app in cluster:
                x = seconds(op.t)
                colour = self.colour_of(op.client)
                if op.accepted:
                    self.used.add("accepted")
                    self.ax.plot([x], [lane.y], marker="o", ms=7.5, color=colour, mec="black", mew=0.6, zorder=5)
                else:
                    self.used.add("rejected")
                    self.ax.plot([x], [lane.y], marker="o", ms=7.5, mfc="white", mec=style.VIOLATION, mew=1.8,
                                 zorder=5)
            x = seconds(cluster[0][0].t)
            if len(cluster) == 1:
                op, app = cluster[0]
                label = (op.op + (f" {app_note(app)}" if app_note(app) else "")) if op.accepted \
                    else f"{op.op} ✗ {op.reject}"
                self.label(lane, rows, x, label, ha="center", color="black" if op.accepted else style.VIOLATION)
                continue
            lines = cluster_lines(cluster)
            free = list(rows)
            for (text, rejected), row in zip(lines, stacked[len(lines)]):
                # Its own row in the stack, else any row this cluster has not used yet.
                candidates = [row] + [r for r in free if r != row] if row in free else free
                for r in candidates:
                    if self.label(lane, [r], x, text, ha="center", color=style.VIOLATION if rejected else "black"):
                        free.remove(r)
                        break

    def network(self) -> None:
        lane = self.lane.get("network")
        if lane is None:
            return
        bar_dy, bar_h = 0.1, 0.34
        for s in partition_intervals(self.trace):
            start, end = seconds(s.start_ns), seconds(s.end_ns)
            if not self.visible(start, end):
                continue
            self.used.add("partition")
            self.rect(start, end, lane.y + bar_dy, bar_h, facecolor=style.PARTITION, edgecolor="#707070", lw=0.6,
                      zorder=2)
            text = f"{s.what} ({s.note})"
            fits = self.text_w(text) + 1.5 * self.char_w() < min(end, self.x1) - max(start, self.x0)
            rows = [(bar_dy, "center")] if fits else [(0.29, "bottom"), (bar_dy - 0.19, "top")]
            self.label(lane, rows, max(start, self.x0) + 0.5 * self.char_w(), text, color="black")
        # Runs of drops closer together than a short label are one burst: a line from the first to the last with a
        # marker at each end and a count.
        gap_ns = int(8 * self.char_w() * NS_PER_S)
        y = lane.y - 0.3
        for kind, msgs in message_bursts(self.trace, gap_ns):
            shown = [m for m in msgs if self.x0 <= seconds(m.t) <= self.x1]
            if not shown:
                continue
            held = kind == "held"
            self.used.add(kind)
            colour = style.NOTE if held else style.VIOLATION
            mark = dict(marker="s" if held else "x", ms=4.5, mew=1.1, color=colour, mfc="none" if held else None,
                        zorder=5)
            a, z = seconds(shown[0].t), seconds(shown[-1].t)
            if len(shown) > 1:
                self.ax.plot([a, z], [y, y], color=style.tint(colour, 0.45), lw=1.6, zorder=4,
                             solid_capstyle="butt")
                self.ax.plot([z], [y], **mark)
            self.ax.plot([a], [y], **mark)
            if len(shown) >= 3:
                receivers = {m.receiver for m in shown}
                text = f"{len(shown)} {'held' if held else 'dropped'}"
                if len(receivers) == 1:
                    text += f" → {next(iter(receivers))}"
                    if all(m.type == "drop-crashed" for m in shown):
                        text += " (down)"
                after = z + 0.9 * self.char_w()
                if after + self.text_w(text, 6.5) + 0.6 * self.char_w(6.5) <= self.x1:
                    self.label(lane, [(-0.3, "center")], after, text, fontsize=6.5, color=colour)
                else:  # no room after the burst: above its line, from its start
                    self.label(lane, [(-0.25, "bottom")], a + 0.6 * self.char_w(), text, fontsize=6.5, color=colour)

    # replication, Sentinel, services -------------------------------------------------

    def promotions(self) -> None:
        """A thin dashed line across the Redis and sentinel lanes at each promotion to master."""
        spanned = [l for l in self.lanes if l.group in ("redis", "sentinel")]
        if not spanned:
            return
        top, bottom = max(l.y for l in spanned) + 0.5, min(l.y for l in spanned) - 0.5
        for ch in self.changes:
            x = seconds(ch.t)
            if ch.promotion and self.x0 <= x <= self.x1:
                self.used.add("promotion")
                self.ax.plot([x, x], [bottom, top], color=style.ROLE, lw=0.9, ls=(0, (4, 2.5)), alpha=0.8,
                             zorder=2.6)

    def role_marks(self) -> None:
        """Each role change on its node's lane: a triangle (up: promoted, down: demoted or re-pointed) and what it
        became; a promotion also says what the replica had to inherit."""
        copies = self.copy_list
        keys = {h.key for h in self.hold_list} | {c.key for c in copies}
        for ch in self.changes:
            lane = self.lane_of(ch.node)
            x = seconds(ch.t)
            if lane is None or not self.x0 <= x <= self.x1:
                continue
            up = ch.role == "master"
            self.used.add("role-up" if up else "role-down")
            y = lane.y + ROW_LOW[0]
            self.ax.plot([x], [y], marker="^" if up else "v", ms=6.5, color=style.ROLE, mec="white", mew=0.6,
                         zorder=7)
            text = ch.text
            if ch.promotion:
                inherited = [c for c in copies if c.node == ch.node and c.reason == "promoted" and c.end_ns == ch.t]
                what = "the lock" if len(keys) <= 1 else "a lock key"
                if inherited:
                    text += " · inherits " + ", ".join(f"{c.client or c.value[:6]}'s value" for c in inherited)
                else:
                    text += f" · had no copy of {what}"
            # After the marker; before it (right-aligned) when the window ends too soon for it.
            fits = x + 1.1 * self.char_w() + self.text_w(text) <= self.x1
            self.label(lane, [ROW_LOW, ROW_TOP], x + (1.1 if fits else -1.1) * self.char_w(), text, color="black",
                       ha="left" if fits else "right", bbox=dict(facecolor="white", edgecolor="none", pad=0.3,
                                                                   alpha=0.85))

    def copies(self) -> None:
        """Replicas' copies of lock values: the owner's colour, lighter and dashed; labelled with the replication lag
        (how long after the master's bar began the copy arrived)."""
        keys = {h.key for h in self.hold_list} | {c.key for c in self.copy_list}
        for c in self.copy_list:
            lane = self.lane_of(c.node)
            start, end = seconds(c.start_ns), seconds(c.end_ns)
            if lane is None or not self.visible(start, end):
                continue
            self.used.add("copy")
            colour = self.colour_of(c.client)
            self.rect(start, end, lane.y, COPY_H, facecolor=style.tint(colour), edgecolor=colour, lw=1.0,
                      ls=(0, (3, 1.5)), zorder=3)
            label = f"{c.client or 'value ' + c.value[:6] + '…'} · replica copy"
            if c.via == "resync":
                label += " (full resync)"
            elif c.lag_ns is not None:
                label += f" · lag {fmt_duration(c.lag_ns)}"
            if len(keys) > 1:
                label += f" · {c.key}"
            # Inside the light bar when it fits there, else above or below it.
            left = max(start, self.x0) + 0.5 * self.char_w()
            inside = left + self.text_w(label) + self.char_w() < min(seconds(c.end_ns), self.x1)
            if not (inside and self.label(lane, [ROW_MID], left, label, color="black")):
                self.label(lane, [ROW_TOP, ROW_LOW], start, label, color="black")
            if c.reason not in (None, "promoted") and end <= self.x1:
                self.reason_label(lane, c.node, start, c.end_ns, c.reason, None)

    def sentinel_marks(self) -> None:
        """Each sentinel's view on its lane: a marker per event; labels above for what it saw (SDOWN, asking for
        and giving votes), below for what it did (REPLICAOF, +switch-master), events close together in one label."""
        by_lane: dict[str, list[SentinelEvent]] = {}
        events = sentinel_events(self.trace)
        for e in events:
            lane = self.lane_of(e.sentinel)
            if lane is not None and self.x0 <= seconds(e.t) <= self.x1:
                by_lane.setdefault(lane.name, []).append(e)
        shared = bool(self.alias)
        gap = SENTINEL_CLUSTER_CHARS * self.char_w()
        if not events:
            for lane in (l for l in self.lanes if l.group == "sentinel"):
                self.label(lane, [ROW_MID], self.x0 + 0.5 * self.char_w(), "no master seen down, no failover",
                           style="italic")
        for name, events in by_lane.items():
            lane = self.lane[name]
            for e in events:
                self.used.add(f"sentinel-{e.kind}")
                self.ax.plot([seconds(e.t)], [lane.y], zorder=7, **SENTINEL_MARKS[e.kind])
            for row, kinds in ((ROW_TOP, ("sdown", "ask-votes", "vote")),
                               (ROW_LOW, ("promote", "reconfigure", "switch"))):
                clusters: list[list[SentinelEvent]] = []
                for e in (e for e in events if e.kind in kinds):
                    if clusters and seconds(e.t) - seconds(clusters[-1][-1].t) < gap:
                        clusters[-1].append(e)
                    else:
                        clusters.append([e])
                other = ROW_LOW if row == ROW_TOP else ROW_TOP
                for cl in clusters:
                    text = " · ".join((f"{e.sentinel}: " if shared else "") + e.text for e in cl)
                    self.label(lane, [row, other], seconds(cl[0].t) + 0.8 * self.char_w(), text, color="black")

    def calls(self) -> None:
        """Calls to a service on its lane: a line in the caller's colour from the call to the answer, stacked when
        calls overlap; the wait is written after the answer. A pause of the service shades the lane behind them."""
        slots = (0.24, 0.08, -0.08, -0.22)
        for service in self.trace.services:
            lane = self.lane_of(service)
            if lane is None:
                continue
            ends: list[float] = []  # per slot, when its last call ended
            for c in service_calls(self.trace):
                if c.service != service:
                    continue
                start = seconds(c.called_ns)
                done = c.answered_ns if c.answered_ns is not None else self.trace.end_ns
                end = seconds(done)
                slot = next((i for i, e in enumerate(ends) if e < start), None)
                if slot is None and len(ends) < len(slots):
                    ends.append(end)
                    slot = len(ends) - 1
                elif slot is None:  # more calls at once than rows: share the row that frees first
                    slot = min(range(len(ends)), key=lambda i: ends[i])
                ends[slot] = end
                if not self.visible(start, end):
                    continue
                self.used.add("call")
                colour = self.colour_of(c.client)
                dy = slots[slot]
                a, z = self.widened(start, end)
                self.ax.plot([a, z], [lane.y + dy] * 2, color=colour, lw=2.2, zorder=4, solid_capstyle="butt",
                             ls="-" if c.answered_ns is not None else (0, (2, 1.5)))
                self.ax.plot([a], [lane.y + dy], marker="o", ms=4, color=colour, mec="black", mew=0.5, zorder=5)
                if c.answered_ns is not None:
                    self.ax.plot([z], [lane.y + dy], marker=5, ms=6, color=colour, mec="black", mew=0.5, zorder=5)
                    text = f"{c.client}: answered after {fmt_duration(c.answered_ns - c.called_ns)}"
                else:
                    text = f"{c.client}: no answer"
                self.label(lane, [(dy, "center")], z + 0.9 * self.char_w(), text, fontsize=6.5, color="black")

    def violations(self, verdicts: list[PropertyVerdict]) -> None:
        hits = sorted((v for v in verdicts if v.violated and v.witness_ns is not None), key=lambda v: v.witness_ns)
        groups: list[list[PropertyVerdict]] = []
        for v in hits:
            x = seconds(v.witness_ns)
            if not self.x0 <= x <= self.x1:
                continue
            self.used.add("violation")
            # Behind the bars and markers (which stay readable), above the lane shading.
            self.ax.axvline(x, color=style.VIOLATION, lw=1.4, alpha=0.9, zorder=2.5)
            if groups and x - seconds(groups[-1][-1].witness_ns) < 4 * self.char_w(8.5):
                groups[-1].append(v)
            else:
                groups.append([v])
        for g in groups:
            x = seconds(g[0].witness_ns)
            self.ax.text(x, 1.004, " ".join(v.id for v in g), transform=self.ax.get_xaxis_transform(), ha="center",
                         va="bottom", color=style.VIOLATION, fontsize=8.5, fontweight="bold", clip_on=False)

    def legend(self, bbox_x: float) -> None:
        grey = "#6E6E6E"
        handles: list = [Patch(facecolor=self.colour[c], edgecolor="black", lw=0.5, label=c) for c in self.colour]
        entries = [
            ("belief", Patch(facecolor=grey, edgecolor="black", lw=0.5, label="client believes it holds the lock")),
            ("window", Patch(facecolor="none", edgecolor=grey, hatch="////", label="promised validity window")),
            ("hold", Patch(facecolor=grey, alpha=0.9, label="node holds that client's value")),
            ("ungranted", Patch(facecolor="white", edgecolor=grey, hatch="....",
                                label="… from an attempt that failed")),
            ("extended", Patch(facecolor="none", edgecolor=grey, hatch="\\\\\\\\", label="window added by extensions")),
            ("renewal", Line2D([], [], marker=3, ms=5, mew=1.6, ls="none", color="black", label="lease extended")),
            ("renewal-failed", Line2D([], [], marker=3, ms=5, mew=1.6, ls="none", color=style.VIOLATION,
                                      label="extension failed")),
            ("attempt", Line2D([], [], marker="|", ms=7, mew=1.4, ls="none", color=grey, label="acquire attempt")),
            ("pause", Patch(facecolor=style.PAUSE, label="paused")),
            ("down", Patch(facecolor="white", edgecolor=style.DOWN, hatch="xx", lw=0, label="crashed (down)")),
            ("crash", Line2D([], [], marker="X", ms=8, ls="none", color=style.FAULT, label="crash")),
            ("restart", Line2D([], [], marker=">", ms=7, ls="none", color=style.FAULT, label="restart")),
            ("clock", Line2D([], [], marker="D", ms=5, ls="none", color=style.FAULT,
                             label="clock jump / drift / slew")),
            ("accepted", Line2D([], [], marker="o", ms=7, ls="none", color=grey, mec="black", mew=0.6,
                                label="op accepted")),
            ("rejected", Line2D([], [], marker="o", ms=7, ls="none", mfc="white", mec=style.VIOLATION, mew=1.8,
                                label="op rejected")),
            ("partition", Patch(facecolor=style.PARTITION, edgecolor="#707070", lw=0.6, label="network partition")),
            ("dropped", Line2D([], [], marker="x", ms=5, mew=1.1, ls="none", color=style.VIOLATION,
                               label="message dropped")),
            ("held", Line2D([], [], marker="s", ms=4.5, ls="none", mfc="none", color=style.NOTE,
                            label="message held")),
            ("copy", Patch(facecolor=style.tint(grey), edgecolor=grey, ls=(0, (3, 1.5)),
                           label="replica's copy of that client's value")),
            ("promotion", Line2D([], [], color=style.ROLE, lw=0.9, ls=(0, (4, 2.5)), label="promotion to master")),
            ("role-up", Line2D([], [], marker="^", ms=6.5, ls="none", color=style.ROLE, label="node promoted")),
            ("role-down", Line2D([], [], marker="v", ms=6.5, ls="none", color=style.ROLE,
                                 label="node demoted / re-pointed")),
        ]
        entries += [(f"sentinel-{kind}", Line2D([], [], ls="none", label=SENTINEL_LEGEND[kind], **SENTINEL_MARKS[kind]))
                    for kind in SENTINEL_EVENT_KINDS]
        entries += [
            ("call", Line2D([], [], color=grey, lw=2.2, marker=5, ms=6, mec="black", mew=0.5,
                            label="call to a service → its answer")),
            ("violation", Line2D([], [], color=style.VIOLATION, lw=1.4, label="violation (first witness)")),
        ]
        handles += [h for key, h in entries if key in self.used]
        top = 1 - TOP_INCH / self.fig.get_figheight()
        self.fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(bbox_x, top), handlelength=1.8,
                        handleheight=1.0, borderaxespad=0.0, labelspacing=0.45)


def _witness_lines(verdicts: list[PropertyVerdict], variant: str, x0: float, x1: float,
                   wrap: int = 180) -> list[tuple[str, str]]:
    """(text, colour) lines for under the plot: a summary, then each violation's first witness."""
    violated = [v for v in verdicts if v.violated]
    holds = [v for v in verdicts if not v.violated]
    summary = f"Verdicts ({variant}): "
    summary += ("violated " + ", ".join(f"{v.id} {v.name}" for v in violated)) if violated else "nothing violated"
    if holds:
        summary += "   ·   " + "; ".join(f"{v.id} {v.name}: {v.status}" for v in holds)
    lines = [(summary, "black")]
    for v in violated:
        head = f"{v.id} {v.name} ({v.count} violation{'s' if v.count != 1 else ''})"
        if v.witness_ns is not None:
            head += f" — first at {fmt_time(v.witness_ns)}"
            if not x0 <= seconds(v.witness_ns) <= x1:
                head += " (outside the window shown)"
        text = f"{head}: {v.witness_text}" if v.witness_text else head
        wrapped = textwrap.wrap(text, wrap, subsequent_indent="      ") or [text]
        lines += [(w, style.VIOLATION) for w in wrapped]
    return lines


def default_title(trace: Trace, variant: Optional[str]) -> str:
    stem = Path(trace.source).stem if trace.source else "locksim run"
    return f"{stem} · {variant}" if variant else stem


def subtitle(trace: Trace) -> str:
    run = trace.run
    n_nodes = len(trace.nodes)
    parts = [f"seed {run.seed}", f"{len(trace.clients)} client{'s' if len(trace.clients) != 1 else ''}"]
    roles = initial_roles(trace)
    if roles:
        masters = [n for n in trace.nodes if roles.get(n) == "master"]
        replicas = [n for n in trace.nodes if roles.get(n) == "replica"]
        text = f"Redis master {', '.join(masters)}"
        if replicas:
            text += f" + replica{'s' if len(replicas) != 1 else ''} {', '.join(replicas)}"
        parts.append(text)
    else:
        parts.append(f"{n_nodes} Redis node{'s' if n_nodes != 1 else ''} (quorum {run.quorum})")
    if trace.sentinels:
        parts.append(f"{len(trace.sentinels)} sentinel{'s' if len(trace.sentinels) != 1 else ''}")
    if trace.services:
        parts.append(f"service{'s' if len(trace.services) != 1 else ''} {', '.join(trace.services)}")
    if run.app != "none":
        final = final_app_note(trace)
        parts.append(f"app: {run.app}" + (f", at the end {final}" if final else ""))
    parts.append(f"run ends at {fmt_time(trace.end_ns)}")
    return " · ".join(parts) + "   —   x: true time"


def _default_window_end(trace: Trace, verdicts: Optional[list[PropertyVerdict]], x0: float) -> float:
    """The whole run, unless it idles for most of its length: then stop a little after the last
    activity (and any violation witness), so a control run's half second is not a sliver."""
    end_s = seconds(trace.end_ns)
    last = seconds(trace.activity_end_ns)
    for v in verdicts or []:
        if v.violated and v.witness_ns is not None:
            last = max(last, seconds(v.witness_ns))
    x1 = end_s if last > 0.6 * end_s else min(end_s, last * 1.1 + 0.05 * end_s * (last == 0))
    return x1 if x1 > x0 else x0 + 1.0


def draw(trace: Trace, verdicts: Optional[list[PropertyVerdict]] = None, variant: Optional[str] = None,
         title: Optional[str] = None, window: tuple[Optional[float], Optional[float]] = (None, None)) -> Figure:
    """The timeline figure of one run. ``window`` is (from, to) in seconds; None = the whole run.

    Call inside ``style.context()`` (``render`` does) so the figure gets locksim's defaults.
    """
    end_s = seconds(trace.end_ns)
    x0 = 0.0 if window[0] is None else float(window[0])
    x1 = (_default_window_end(trace, verdicts, x0) if window[1] is None else float(window[1]))
    if x1 <= x0:
        raise ValueError(f"empty time window: from {x0} s to {x1} s")
    has_network = bool(partition_intervals(trace)) or any(m.type in NETWORK_TYPES for m in trace.of(Message))
    lanes = _lanes(trace, has_network)
    name_in = max((len(l.text) for l in lanes), default=1) * 10 * 0.6 / 72  # lane names are 10 pt
    left_in = max(LEFT_INCH, name_in + 0.75)
    axes_w_in = FIG_WIDTH - left_in - RIGHT_INCH
    wrap = int((FIG_WIDTH - left_in - 0.3) / (7.5 * 0.52 / 72))  # characters of 7.5-pt text that fit
    witness = _witness_lines(verdicts, variant or "verdicts", x0, x1, wrap) if verdicts is not None else []

    axes_h = max(len(lanes), 1) * LANE_INCH
    bottom = BOTTOM_INCH + (len(witness) * WITNESS_LINE_INCH + 0.25 if witness else 0.0)
    height = TOP_INCH + axes_h + bottom
    fig = Figure(figsize=(FIG_WIDTH, height))
    ax = fig.add_axes([left_in / FIG_WIDTH, bottom / height, axes_w_in / FIG_WIDTH, axes_h / height])
    pad = 0.012 * (x1 - x0)
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(-0.5, max(len(lanes), 1) - 0.5)
    ax.set_yticks([l.y for l in lanes], [l.text for l in lanes])
    ax.tick_params(axis="y", length=0, pad=6)
    ax.set_xlabel("true time (s)")
    ax.ticklabel_format(axis="x", style="plain", useOffset=False)
    ax.xaxis.set_minor_locator(AutoMinorLocator())
    ax.grid(axis="x", color=style.GRID, lw=0.6, zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)

    p = _Painter(fig, ax, trace, lanes, x0, x1, axes_w_in)
    p.backgrounds(lanes)
    if end_s < x1:
        ax.axvspan(end_s, x1 + pad, color="#EDEDED", zorder=1, lw=0)
        ax.text(end_s, 1.004, "run end", transform=ax.get_xaxis_transform(), fontsize=7, color=style.NOTE,
                ha="left", va="bottom")
    p.shades()
    p.fault_marks()
    p.promotions()
    p.beliefs()
    p.failed_renewal_ticks()
    p.attempts()
    p.role_marks()
    p.holds()
    p.copies()
    p.sentinel_marks()
    p.calls()
    p.ops()
    p.network()
    if verdicts is not None:
        p.violations(verdicts)

    # Group labels to the left of the lane names.
    gx = -(name_in + 0.22) / axes_w_in
    replicated = bool(initial_roles(trace))
    group_names = {"client": "clients",
                   "redis": "Redis\nmaster / replica" if replicated else f"Redis nodes\nquorum {trace.run.quorum}",
                   "sentinel": "Sentinel", "service": "services", "resource": "", "other": "other", "network": ""}
    for group, label in group_names.items():
        ys = [l.y for l in lanes if l.group == group]
        if ys and label:
            ax.text(gx, (sum(ys) / len(ys) + 0.5) / len(lanes), label, transform=ax.transAxes, rotation=90,
                    ha="center", va="center", fontsize=8, color=style.NOTE, linespacing=1.1)

    top = 1 - 0.14 / height
    fig.text(left_in / FIG_WIDTH, top, title or default_title(trace, variant), fontsize=13, fontweight="bold",
             va="top", ha="left")
    fig.text(left_in / FIG_WIDTH, top - 0.30 / height, subtitle(trace), fontsize=8.5, color=style.NOTE, va="top",
             ha="left")
    p.legend((FIG_WIDTH - RIGHT_INCH + 0.2) / FIG_WIDTH)
    y = (bottom - BOTTOM_INCH - 0.1) / height
    for text, colour in witness:
        fig.text(left_in / FIG_WIDTH, y, text, fontsize=7.5, color=colour, va="top", ha="left")
        y -= WITNESS_LINE_INCH / height
    return fig


def render(trace: Trace, outs: Sequence[str | Path], **kw) -> list[Path]:
    """Draws ``trace`` (see ``draw`` for options) and writes each of ``outs`` (.png / .svg)."""
    paths = [Path(o) for o in outs]
    for path in paths:
        if path.suffix.lower() not in OUTPUT_SUFFIXES:
            raise ValueError(f"{path}: unsupported output type (use {' or '.join(OUTPUT_SUFFIXES)})")
    with style.context():
        fig = draw(trace, **kw)
        for path in paths:
            path.parent.mkdir(parents=True, exist_ok=True)
            # "tight" trims unused margin and keeps a legend taller than few lanes whole.
            fig.savefig(path, format=path.suffix.lower().lstrip("."), bbox_inches="tight", pad_inches=0.15)
    return paths


# --- command line ----------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="timeline", description="Draw the timeline of one locksim run from its trace (JSON Lines).")
    p.add_argument("trace", help="the run's trace (JSON Lines, sim/world/trace_format.cc)")
    p.add_argument("--out", action="append", required=True, metavar="FILE",
                   help="output file, .png or .svg; repeat for several")
    p.add_argument("--verdicts", metavar="FILE",
                   help="the run's verdicts (the simulator's --json output): marks violations")
    p.add_argument("--variant", metavar="NAME", help="which variant of the verdicts file (needed if it has several)")
    p.add_argument("--title", help="title (default: the trace's name and the variant)")
    p.add_argument("--from", dest="t_from", type=float, metavar="S", help="window start, seconds of true time")
    p.add_argument("--to", dest="t_to", type=float, metavar="S", help="window end, seconds of true time")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.variant and not args.verdicts:
            raise ValueError("--variant needs --verdicts")
        for out in args.out:
            if Path(out).suffix.lower() not in OUTPUT_SUFFIXES:
                raise ValueError(f"{out}: unsupported output type (use .png or .svg)")
        if args.t_from is not None and args.t_to is not None and args.t_to <= args.t_from:
            raise ValueError(f"--to ({args.t_to}) must be after --from ({args.t_from})")
        trace = load(args.trace)
        verdicts, variant = None, args.variant
        if args.verdicts:
            variant, verdicts = load_verdicts(args.verdicts, args.variant)
        render(trace, args.out, verdicts=verdicts, variant=variant, title=args.title,
               window=(args.t_from, args.t_to))
    except (TraceError, ValueError, OSError) as e:
        print(f"timeline: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
