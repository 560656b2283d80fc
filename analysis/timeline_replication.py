"""What a timeline draws for replicated deployments, Sentinel, called services and the network, as plain data.

No matplotlib here, and no message text: roles come from the judged ``role-interval`` lines (what each Redis node
started as and every change), replica copies from ``replicated`` facts and the replication entries delivered
(``ReplicationEntry.op``), a sentinel's view from the payloads it sent (``IsMasterDown``, ``MasterDownReply``,
``ReplicaOf``, ``SwitchMaster``), service calls from ``ServiceCall`` / ``ServiceAnswer`` matched by request id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Optional, Sequence, TypeVar

from analysis.timeline_model import hold_intervals, value_owners
from analysis.trace import (
    Fault, IsMasterDown, JudgedRole, MasterDownReply, Message, ReplicaOf, Replicated, ReplicationEntry, Role,
    ServiceAnswer, ServiceCall, SwitchMaster, Trace)

# --- roles (judged) --------------------------------------------------------------


def initial_roles(trace: Trace) -> dict[str, str]:
    """Each node's role when the run began (its first role interval): "master" or "replica" for Redis, "leader",
    "follower" or "candidate" for a consensus store's members; {} when no Redis node of the run was ever a replica
    and there is no store (nothing is replicated: every node is a master all along)."""
    roles = trace.of(JudgedRole)
    if not any(r.role in ("replica", "leader", "follower", "candidate") for r in roles):
        return {}
    first: dict[str, str] = {}
    for r in roles:
        first.setdefault(r.node, r.role)
    return {n: first[n] for n in trace.nodes if n in first}


@dataclass(frozen=True)
class RoleChange:
    """A node's role change (a role interval that began with a role fact), with the role it had before: a Redis
    node's master / replica in a sentinel epoch, or a store member's leader / follower / candidate in a Raft term."""

    t: int
    node: str
    role: str  # master | replica | leader | follower | candidate
    master: Optional[str]  # role replica: the node it now follows
    epoch: int
    before: Optional[str]  # the role before, None (unknown)
    leader: Optional[str] = None  # role follower: its leader

    @property
    def promotion(self) -> bool:
        return self.role in ("master", "leader") and self.before != self.role

    @property
    def text(self) -> str:
        if self.role == "leader":
            return f"leader, term {self.epoch}"
        if self.role == "candidate":
            return f"candidate, term {self.epoch}"
        if self.role == "follower":
            return f"follows {self.leader}, term {self.epoch}" if self.leader else f"follower, term {self.epoch}"
        if self.role == "master":
            return f"promoted to master, epoch {self.epoch}" if self.promotion else f"master, epoch {self.epoch}"
        if self.before == "master":
            return f"demoted: replica of {self.master}, epoch {self.epoch}"
        return f"now replica of {self.master}, epoch {self.epoch}"


def role_changes(trace: Trace) -> list[RoleChange]:
    """Every role change in time order, each knowing the role before it (the node's previous role interval)."""
    before: dict[str, str] = {}
    changes = []
    for r in trace.of(JudgedRole):
        if r.changed:
            changes.append(RoleChange(r.start, r.node, r.role, r.master, r.epoch, before.get(r.node), r.leader))
        before[r.node] = r.role
    changes.sort(key=lambda c: c.t)
    return changes


# --- replica copies --------------------------------------------------------------


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


_GONE_BY_ENTRY = {"flush": "full resync", "del": "deleted", "set": "overwritten"}


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
    last_entry: dict[str, tuple[int, ReplicationEntry]] = {}  # node -> (when, entry) last delivered to it
    flush_at: dict[str, int] = {}  # node -> offset of the last full resync it received
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
            if r.type == "deliver" and isinstance(r.payload, ReplicationEntry):
                last_entry[r.receiver] = (r.t, r.payload)
                if r.payload.op == "flush":
                    flush_at[r.receiver] = r.payload.offset
        elif isinstance(r, Replicated):
            k = (r.node, r.key)
            if r.present:
                if k in open_:
                    if open_[k][1] == r.value:
                        continue
                    close(r.node, r.key, r.t, "overwritten")
                resync = flush_at.get(r.node) == r.offset
                open_[k] = (r.t, r.value, "resync" if resync else "stream")
            elif k in open_:
                when, entry = last_entry.get(r.node, (None, None))
                reason = _GONE_BY_ENTRY.get(entry.op, "removed") if entry is not None and when == r.t else "removed"
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


# --- Sentinel ---------------------------------------------------------------------


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
    (one per epoch), each REPLICAOF order, each +switch-master (the hellos that repeat it to the peers are not
    news). After a sentinel switches, the same kinds of events count again.
    """
    sentinels = set(trace.sentinels)
    events: list[SentinelEvent] = []
    seen: set[tuple] = set()
    generation: dict[str, int] = {}  # a sentinel's switches so far

    def once(key: tuple, event: SentinelEvent) -> None:
        if key not in seen:
            seen.add(key)
            events.append(event)

    for m in trace.of(Message):
        if m.type != "send" or m.sender not in sentinels:
            continue
        s, gen, p = m.sender, generation.get(m.sender, 0), m.payload
        if isinstance(p, IsMasterDown) and p.master is not None:
            once(("sdown", s, p.master, gen), SentinelEvent(m.t, s, "sdown", p.master, p.epoch))
            if p.wants_vote:
                once(("ask-votes", s, p.epoch), SentinelEvent(m.t, s, "ask-votes", p.master, p.epoch))
        elif isinstance(p, MasterDownReply) and p.leader is not None:
            once(("vote", s, p.epoch), SentinelEvent(m.t, s, "vote", p.leader, p.epoch))
        elif isinstance(p, ReplicaOf) and p.master is None:
            once(("promote", s, m.receiver, gen), SentinelEvent(m.t, s, "promote", m.receiver))
        elif isinstance(p, ReplicaOf):
            once(("reconfigure", s, m.receiver, p.master, gen),
                 SentinelEvent(m.t, s, "reconfigure", m.receiver, detail=p.master))
        elif isinstance(p, SwitchMaster) and p.old_master is not None and p.new_master is not None:
            key = ("switch", s, p.old_master, p.new_master)
            if key not in seen:
                once(key, SentinelEvent(m.t, s, "switch", p.new_master, detail=p.old_master))
                generation[s] = gen + 1
    return events


# --- services -----------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A client's call to a service: sent, arrived (the service took it in), answered, and the answer received."""

    service: str
    client: str
    called_ns: int
    arrived_ns: Optional[int]  # None: never reached it (still queued behind a pause, or lost)
    answered_ns: Optional[int]  # None: never answered within the run
    received_ns: Optional[int]


def service_calls(trace: Trace) -> list[Call]:
    """Each call a client sent to a service, with its arrival, its answer and the answer's arrival, matched by
    (client, service, request id). A call to a paused service arrives only when it resumes."""
    services = set(trace.services)
    calls: dict[tuple[str, str, int], dict] = {}
    for m in trace.of(Message):
        p = m.payload
        if isinstance(p, ServiceCall) and m.receiver in services:
            key = (m.sender, m.receiver, p.request_id)
            if m.type in ("send", "lost") and key not in calls:
                calls[key] = dict(service=m.receiver, client=m.sender, called_ns=m.t, arrived_ns=None,
                                  answered_ns=None, received_ns=None)
            elif m.type == "deliver" and key in calls and calls[key]["arrived_ns"] is None:
                calls[key]["arrived_ns"] = m.t
        elif isinstance(p, ServiceAnswer) and m.sender in services:
            key = (m.receiver, m.sender, p.request_id)
            if key not in calls:
                continue
            field_ = "answered_ns" if m.type in ("send", "lost") else "received_ns" if m.type == "deliver" else None
            if field_ is not None and calls[key][field_] is None:
                calls[key][field_] = m.t
    return [Call(**c) for c in calls.values()]


# --- the network ------------------------------------------------------------------------

K = TypeVar("K", bound=Hashable)

DROPPED_TYPES = ("lost", "partition-drop", "drop-crashed", "refused")
NETWORK_TYPES = DROPPED_TYPES + ("partition-hold",)


def message_bursts(trace: Trace, gap_ns: int) -> list[tuple[str, list[Message]]]:
    """Dropped and held messages as the network lane draws them: ("dropped" | "held", messages), each a run whose
    messages are at most ``gap_ns`` apart — sentinels pinging a dead or cut-off master every 50 ms are one burst,
    not hundreds of crosses."""
    undelivered = [m for m in trace.of(Message) if m.type in NETWORK_TYPES]
    return bursts_by(undelivered, lambda m: "held" if m.type == "partition-hold" else "dropped", gap_ns)


def bursts_by(messages: Sequence[Message], key: Callable[[Message], K], gap_ns: int) -> list[tuple[K, list[Message]]]:
    """Messages (in time order) in runs: a message joins the last run of its key when it is at most ``gap_ns``
    after that run's last message, else it starts a new one. (key, run) pairs, in the order the runs began."""
    bursts: list[tuple[K, list[Message]]] = []
    last: dict[K, list[Message]] = {}
    for m in messages:
        k = key(m)
        run = last.get(k)
        if run is not None and m.t - run[-1].t <= gap_ns:
            run.append(m)
            continue
        run = [m]
        last[k] = run
        bursts.append((k, run))
    return bursts
