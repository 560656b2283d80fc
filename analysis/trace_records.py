"""The records a trace's lines become, one frozen dataclass per line type and per message payload.

The line format is the simulator's own declaration (``locksim trace-schema``, kept in ``trace_schema.json`` beside
this file; docs/trace.md is its reference): the tables at the end of this file (``LINE_FIELDS``,
``PAYLOAD_FIELDS``) are built from it and say which JSON key each attribute comes from, its type, and whether it
must be there. ``analysis/trace.py`` reads lines into these records; drawing code reads ``grant.validity_ns``,
``message.payload.cmd`` or ``belief.stop`` rather than JSON, and never a message's ``msg`` text (that is for
people).

Three families:

- facts and messages, in true-time order (``Grant``, ``KeyHeld``, ``Fault``, ``Message``...); a message's payload
  is a record of its own (``RedisRequest``, ``InfoReply``, ``SwitchMaster``...), chosen by the line's ``kind``;
- ``Promise`` lines after the run's ``End``;
- the judged lines (``Judged``, ``JudgedBelief``, ``JudgedWindow``, ``JudgedHolder``, ``JudgedRole``,
  ``JudgedVerdict``): what the simulator's checkers computed, at the run's end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Optional, Union

# --- the header ------------------------------------------------------------------


@dataclass(frozen=True)
class Process:
    name: str
    kind: str  # client | redis | resource | sentinel | service | other


@dataclass(frozen=True)
class Run:
    seed: str
    processes: tuple[Process, ...]
    keys: tuple[str, ...]
    service_nodes: tuple[str, ...]
    quorum: int
    app: str
    # Per service node: the master it replicates when the run starts, None for a master.
    service_masters: tuple[str | None, ...] = ()
    # A checked history's trace (locksim check): its file, and whether it records the service's keys.
    history: str | None = None
    service_recorded: bool = True

    def names_of(self, kind: str) -> list[str]:
        return [p.name for p in self.processes if p.kind == kind]


# --- message payloads (a message line's "kind" and the fields after it) ----------


@dataclass(frozen=True)
class RedisRequest:
    KIND: ClassVar[str] = "redis-request"
    request_id: int
    cmd: str  # SET SETNX GET DEL PEXPIRE EXPIRE PTTL TTL PERSIST INCR EVAL WAIT
    key: Optional[str] = None  # every command but WAIT
    value: Optional[str] = None  # SET, SETNX; EVAL: ARGV[1] (the lock value)
    nx: bool = False
    xx: bool = False
    px_ms: Optional[int] = None  # SET ... PX, PEXPIRE, EVAL compare-and-pexpire
    ex_s: Optional[int] = None  # SET ... EX, EXPIRE
    condition: Optional[str] = None  # PEXPIRE/EXPIRE ... NX|XX|GT|LT: nx | xx | gt | lt | xx-lt
    pxat_ms: Optional[int] = None  # SET ... PXAT (Unix ms of the node's wall clock)
    exat_s: Optional[int] = None  # SET ... EXAT
    get: bool = False  # SET ... GET
    keepttl: bool = False  # SET ... KEEPTTL
    script: Optional[str] = None  # EVAL: compare-and-delete | compare-and-pexpire | lock-and-incr
    counter_key: Optional[str] = None  # EVAL lock-and-incr: KEYS[2], the fencing counter
    by_sha: bool = False  # EVALSHA: the node must have the script cached
    numreplicas: Optional[int] = None  # WAIT
    timeout_ms: Optional[int] = None  # WAIT

    @property
    def deletes(self) -> bool:
        """A DEL or a compare-and-delete: what removes a lock's key."""
        return self.cmd == "DEL" or self.script == "compare-and-delete"

    @property
    def sets(self) -> bool:
        """A SET or SETNX: what puts a lock value on a node."""
        return self.cmd in ("SET", "SETNX")


@dataclass(frozen=True)
class RedisReply:
    KIND: ClassVar[str] = "redis-reply"
    request_id: int
    reply: str  # ok | nil | integer | bulk | error
    integer: Optional[int] = None
    value: Optional[str] = None
    error: Optional[str] = None


@dataclass(frozen=True)
class ReplicationEntry:
    KIND: ClassVar[str] = "replication-entry"
    offset: int
    op: str  # set | del | flush (a full resynchronisation starts)
    key: Optional[str] = None
    value: Optional[str] = None
    expire_at_ms: Optional[int] = None


@dataclass(frozen=True)
class ReplicationAck:
    KIND: ClassVar[str] = "replication-ack"
    offset: int
    attach: bool  # PSYNC: a replica attaching asks for a full resynchronisation


@dataclass(frozen=True)
class ReplicationGetAck:
    KIND: ClassVar[str] = "replication-getack"


@dataclass(frozen=True)
class ReplicaOf:
    KIND: ClassVar[str] = "replicaof"
    master: Optional[str]  # None: REPLICAOF NO ONE (become a master)
    epoch: int


@dataclass(frozen=True)
class Ping:
    KIND: ClassVar[str] = "ping"
    request_id: int


@dataclass(frozen=True)
class Pong:
    KIND: ClassVar[str] = "pong"
    request_id: int


@dataclass(frozen=True)
class Info:
    KIND: ClassVar[str] = "info"
    request_id: int


@dataclass(frozen=True)
class InfoReply:
    KIND: ClassVar[str] = "info-reply"
    request_id: int
    role: str  # master | replica
    offset: int
    master: Optional[str] = None  # role replica: whose


@dataclass(frozen=True)
class IsMasterDown:
    KIND: ClassVar[str] = "is-master-down"
    request_id: int
    master: Optional[str]
    epoch: int
    wants_vote: bool


@dataclass(frozen=True)
class MasterDownReply:
    KIND: ClassVar[str] = "master-down-reply"
    request_id: int
    down: bool
    leader: Optional[str]  # the vote; None: no vote
    epoch: int  # the vote's epoch


@dataclass(frozen=True)
class SwitchMaster:
    KIND: ClassVar[str] = "switch-master"
    old_master: Optional[str]
    new_master: Optional[str]
    epoch: int


@dataclass(frozen=True)
class GetMaster:
    KIND: ClassVar[str] = "get-master"
    request_id: int


@dataclass(frozen=True)
class MasterIs:
    KIND: ClassVar[str] = "master-is"
    request_id: int
    master: Optional[str]
    epoch: int


@dataclass(frozen=True)
class ResourceRequest:
    KIND: ClassVar[str] = "resource-request"
    request_id: int
    op: str
    session: int
    token: int  # -1: none
    value: str  # the session's lock value
    argument: int


@dataclass(frozen=True)
class ResourceReply:
    KIND: ClassVar[str] = "resource-reply"
    request_id: int
    accepted: bool
    reject: str
    value: int


@dataclass(frozen=True)
class ServiceCall:
    KIND: ClassVar[str] = "service-call"
    request_id: int


@dataclass(frozen=True)
class ServiceAnswer:
    KIND: ClassVar[str] = "service-answer"
    request_id: int


@dataclass(frozen=True)
class UnknownPayload:
    """A payload the schema declares but no drawing code reads (the consensus store's traffic): its fields, checked
    against the schema, with its "kind"."""

    kind: str
    fields: dict = field(compare=False, hash=False)


Payload = Union[RedisRequest, RedisReply, ReplicationEntry, ReplicationAck, ReplicationGetAck, ReplicaOf, Ping, Pong,
                Info, InfoReply, IsMasterDown, MasterDownReply, SwitchMaster, GetMaster, MasterIs, ResourceRequest, ResourceReply,
                ServiceCall, ServiceAnswer, UnknownPayload]


# --- facts and messages ------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    t: int
    type: str  # send | deliver | lost | partition-drop | partition-hold | drop-crashed | refused | unsent
    sender: str
    receiver: str
    msg: str  # for people: never parsed
    payload: Optional[Payload] = None  # None: a trace written before messages had fields

    @property
    def kind(self) -> Optional[str]:
        """The payload's kind ("redis-request", "pong"...), None when the line has none."""
        p = self.payload
        return None if p is None else p.kind if isinstance(p, UnknownPayload) else p.KIND


@dataclass(frozen=True)
class Invoke:
    t: int
    client: str
    op: int
    kind: str  # acquire | release | extend | fencing-token


@dataclass(frozen=True)
class Complete:
    t: int
    client: str
    op: int
    kind: str
    outcome: str  # ok | fail | info


@dataclass(frozen=True)
class Want:
    t: int
    client: str


@dataclass(frozen=True)
class GiveUp:
    t: int
    client: str


@dataclass(frozen=True)
class Grant:
    t: int
    session: int
    client: str
    value: str
    token: int  # -1: no fencing token
    validity_ns: int
    clock: str  # wall | monotonic


@dataclass(frozen=True)
class Extend:
    """A session's lease was extended (compare-and-pexpire on a quorum, or a watchdog renewal)."""

    t: int
    session: int
    client: str
    clock: str  # wall | monotonic: the client clock that measures the new lease


@dataclass(frozen=True)
class BeliefEnd:
    t: int
    session: int
    client: str
    reason: str  # released | validity-check | session-lost | crashed | abandoned


@dataclass(frozen=True)
class Release:
    t: int
    session: int
    client: str


@dataclass(frozen=True)
class KeyHeld:
    t: int
    node: str
    key: str
    value: str


@dataclass(frozen=True)
class KeyDropped:
    t: int
    node: str
    key: str
    value: str
    reason: str  # deleted | expired | overwritten | lost-in-crash | demoted (a master demoted by the sentinels)


@dataclass(frozen=True)
class Replicated:
    """A replica applied an entry of its master's stream: key now holds value there (present) or nothing.

    Replicas are not the lock service (only masters record key-held / key-dropped); this shows replication lag and
    what a promotion will inherit.
    """

    t: int
    node: str
    key: str
    value: str
    present: bool
    offset: int


@dataclass(frozen=True)
class Role:
    """A node's role changed: a Redis node promoted to master (master None) or made a replica of master, in a
    sentinel epoch; or a consensus store member become leader, candidate or follower of leader, in a Raft term."""

    t: int
    node: str
    role: str  # master | replica (Redis); leader | candidate | follower (store)
    master: Optional[str] = None  # Redis, role replica: the node it now replicates
    epoch: Optional[int] = None  # Redis: the sentinels' epoch
    leader: Optional[str] = None  # store, role follower: its leader
    term: Optional[int] = None  # store: the Raft term


@dataclass(frozen=True)
class Op:
    t: int
    session: int
    client: str
    op: str
    accepted: bool
    reject: str  # none | stale-token | mark-mismatch | out-of-stock | missing-token
    token: int


@dataclass(frozen=True)
class App:
    t: int
    app: str
    counter: int
    increments: int
    elements: int
    size: int
    stock: int
    quiescent: bool


@dataclass(frozen=True)
class Fault:
    """A fault as the world applied it; each kind fills its own fields (the rest are None)."""

    t: int
    fault: str  # pause | resume | crash | restart | clock-jump | clock-drift | clock-slew | partition | heal
    target: Optional[str]  # None for partition / heal
    length_ns: Optional[int] = None  # pause; clock-slew: how long the new rate lasts
    down_for_ns: Optional[int] = None  # crash: < 0 stays down
    by_ns: Optional[int] = None  # clock-jump: the wall clock's step
    ppm: Optional[int] = None  # clock-drift, clock-slew: the clock's new rate
    partition: Optional[int] = None  # partition, heal: its id
    mode: Optional[str] = None  # partition: drop | hold
    until: Optional[int] = None  # pause, crash, clock-slew, partition: when it ends as scheduled then; None: never
    groups: Optional[tuple[tuple[str, ...], ...]] = None  # partition: the processes on each side, by name


@dataclass(frozen=True)
class FaultSpan:
    """A stretch a fault made, written once when it ended (t) — or when the run ended with it still open."""

    t: int
    span: str  # paused | down | partitioned | slewed
    start: int
    ended: str  # resumed | crashed | restarted | healed | rate-changed | run-ended
    target: Optional[str] = None  # None for a partition
    partition: Optional[int] = None  # partitioned: its id
    mode: Optional[str] = None  # partitioned: drop | hold
    ppm: Optional[int] = None  # slewed: the rate during the slew


@dataclass(frozen=True)
class PhaseReached:
    t: int
    process: str
    phase: str


@dataclass(frozen=True)
class StoreSession:
    """A consensus store's session (an etcd lease, a ZooKeeper session) as the leader applied it."""

    t: int
    member: str
    session: int
    client: str
    event: str  # opened | expired | closed
    ttl_ns: int


@dataclass(frozen=True)
class FaultFired:
    t: int
    fault: str  # the scenario's [fault.NAME]
    took_effect: bool


@dataclass(frozen=True)
class End:
    t: int


@dataclass(frozen=True)
class Promise:
    t: int  # when the promise became known: the run's end (older traces: the grant's time)
    session: int
    client: str
    promised_end: Optional[int]  # None: the client's clock never reaches the lease end
    origin: str = "grant"  # the JSON "from": grant | extend
    at: Optional[int] = None  # the grant's (or the extension's) time


@dataclass(frozen=True)
class Clock:
    """A process's clock over the whole run, as the model read it (sim/world/clock.h): piecewise linear in true
    time. Written after the promises; a trace without these lines (hand-made, or older) has no local times."""

    t: int
    process: str
    offset: int  # ns
    segments: tuple[tuple[int, int, int], ...]  # (true start, monotonic reading there, drift ppm), in time order
    jumps: tuple[tuple[int, int], ...] = ()  # (true instant, ns the wall clock stepped by)

    def monotonic(self, t: int) -> int:
        """What the monotonic clock read at true time t (ns): exactly the simulator's integer arithmetic."""
        start, reading, ppm = next(s for s in reversed(self.segments) if s[0] <= t)
        return reading + (t - start) * (1_000_000 + ppm) // 1_000_000 + self.offset

    def wall(self, t: int) -> int:
        """What the wall clock read at true time t: the monotonic reading plus every jump at or before t."""
        return self.monotonic(t) + sum(by for at, by in self.jumps if at <= t)

    def read(self, kind: str, t: int) -> int:
        return self.wall(t) if kind == "wall" else self.monotonic(t)

    @property
    def is_true_time(self) -> bool:
        """Reads true time exactly (no offset, drift or jump): a local time would only repeat the true one."""
        return self.offset == 0 and not self.jumps and all(ppm == 0 for _, _, ppm in self.segments)


# --- judged lines (what the checkers computed; all at the run's end) ---------------------------


@dataclass(frozen=True)
class Judged:
    """Judged lines follow, this many of each kind."""

    t: int
    sessions: int
    promised_windows: int
    holders: int
    role_intervals: int
    verdicts: int


@dataclass(frozen=True)
class JudgedBelief:
    """A session's belief interval as check/sessions computes it: [start, end), and why it stopped."""

    t: int
    session: int
    client: str
    value: str
    token: int  # -1: no fencing token
    start: int  # the grant
    end: int
    stop: str  # released | validity-check | session-lost | crashed | client-crash | abandoned | run-end
    promised_end: Optional[int]  # the grant's own promise; None: never
    released: Optional[int]  # the first release; None: never released
    extensions: int


@dataclass(frozen=True)
class JudgedWindow:
    """A piece of a session's promised window as P1 reads it: [start, end) under one promise."""

    t: int
    session: int
    client: str
    start: int
    end: Optional[int]  # None: never ends
    by: str  # grant | extension: whose promise is in force
    promised_end: Optional[int]  # that promise; None: never
    until: str  # lapsed | extended (the next extension took over) | released | open
    extended_at: Optional[int] = None  # by extension: when it was recorded


@dataclass(frozen=True)
class JudgedHolder:
    """A stretch in which the lock service holds one value on a quorum of its nodes (check/holder)."""

    t: int
    start: int
    end: int
    value: str
    session: Optional[int]  # the session the value belongs to; None: no session was granted with it
    client: Optional[str]


@dataclass(frozen=True)
class JudgedRole:
    """A stretch of one role of one Redis node or store member: what it started as (changed False), then one per
    role fact."""

    t: int
    node: str
    role: str  # master | replica (Redis); leader | candidate | follower (store)
    epoch: int  # Redis: the sentinels' epoch; store: the Raft term
    start: int
    end: int
    changed: bool
    master: Optional[str] = None  # role replica: whose
    leader: Optional[str] = None  # role follower: whose


@dataclass(frozen=True)
class Witness:
    """A property's first witness, exactly as ``locksim run --json`` writes it."""

    at_ns: int
    at: str
    text: str
    kind: str
    who: Optional[str]
    session: Optional[int]
    other: Optional[str]
    other_session: Optional[int]


@dataclass(frozen=True)
class JudgedVerdict:
    t: int
    property: str  # grant-exclusive ...
    id: str  # P1 ...
    status: str  # holds | violated | unknown (locksim check: the history cannot decide it)
    count: int
    witness: Optional[Witness]


JUDGED_CLASSES = (Judged, JudgedBelief, JudgedWindow, JudgedHolder, JudgedRole, JudgedVerdict)

Record = Union[Message, Invoke, Complete, Want, GiveUp, Grant, Extend, BeliefEnd, Release, KeyHeld, KeyDropped,
               Replicated, Role, Op, App, Fault, FaultSpan, PhaseReached, StoreSession, FaultFired, End, Promise, Clock,
               Judged, JudgedBelief, JudgedWindow, JudgedHolder, JudgedRole, JudgedVerdict]

# --- which JSON key fills which attribute -------------------------------------------------------


@dataclass(frozen=True)
class Field:
    key: str  # the JSON key
    type: type  # str | int | bool | dict | list
    required: bool = True
    nullable: bool = False  # JSON null allowed (read as None)
    attr: str = ""  # the attribute, if not the key

    @property
    def name(self) -> str:
        return self.attr or self.key


def _f(spec: str) -> Field:
    """Compact field specs: "key:type" with suffixes ? (optional) and ~ (nullable); "key=attr:type" renames."""
    name, kind = spec.split(":")
    required, nullable = "?" not in kind, "~" in kind
    kind = kind.rstrip("?~")
    key, _, attr = name.partition("=")
    return Field(key, {"s": str, "i": int, "b": bool, "o": dict, "l": list}[kind], required, nullable, attr)


def _fields(*specs: str) -> list[Field]:
    return [_f(s) for s in specs]


# --- the schema: which lines and fields there are, from the simulator's own declaration ---------

# `locksim trace-schema` printed into this file (a test keeps it equal): every line type and payload kind with
# its fields. The reader knows nothing the schema does not declare, and refuses what it does not know.
SCHEMA: dict = json.loads((Path(__file__).resolve().parent / "trace_schema.json").read_text(encoding="utf-8"))
FORMAT: int = SCHEMA["format"]

_TYPES = {"s": str, "i": int, "b": bool, "o": dict, "l": list}
# JSON keys whose attribute has another name ("from" is a Python keyword).
_RENAMED = {("message", "from"): "sender", ("message", "to"): "receiver", ("promise", "from"): "origin"}

# The record class of each line type the schema declares (message lines are all Message).
LINE_CLASSES: dict[str, type] = {
    "invoke": Invoke, "complete": Complete, "want": Want, "give-up": GiveUp, "grant": Grant, "extend": Extend,
    "belief-end": BeliefEnd, "release": Release, "key-held": KeyHeld, "key-dropped": KeyDropped,
    "replicated": Replicated, "role": Role, "op": Op, "app": App, "fault": Fault, "span": FaultSpan,
    "phase": PhaseReached, "store-session": StoreSession, "fault-fired": FaultFired, "end": End, "promise": Promise,
    "clock": Clock, "judged": Judged, "belief": JudgedBelief, "promised-window": JudgedWindow,
    "holder": JudgedHolder, "role-interval": JudgedRole, "verdict": JudgedVerdict,
}
# The record class of each payload kind; a kind the schema declares but the drawing code does not need (the
# consensus store's traffic) is read as an UnknownPayload with its fields checked.
PAYLOAD_CLASSES: dict[str, type] = {
    cls.KIND: cls for cls in (RedisRequest, RedisReply, ReplicationEntry, ReplicationAck, ReplicationGetAck,
                              ReplicaOf, Ping, Pong, Info, InfoReply, IsMasterDown, MasterDownReply, SwitchMaster, GetMaster, MasterIs,
                              ResourceRequest, ResourceReply, ServiceCall, ServiceAnswer)}


def _schema_fields(decl: dict, owner: str, skip: tuple[str, ...] = ()) -> list[Field]:
    return [Field(f["name"], _TYPES[f["type"]], not f["optional"], f["nullable"], _RENAMED.get((owner, f["name"]), ""))
            for f in decl["fields"] if f["name"] not in skip]


_MESSAGE_DECLS = [d for d in SCHEMA["lines"] if d["section"] == "message"]
# The message types, one per fate a message can meet (send, deliver, lost, partition-drop, ...).
MESSAGE_TYPES = tuple(d["name"] for d in _MESSAGE_DECLS)
# The fields every message line has; "kind" chooses its payload (PAYLOAD_FIELDS).
MESSAGE_FIELDS = _schema_fields(_MESSAGE_DECLS[0], "message", skip=("kind",))
# type -> (record class, fields), for every line type but the header.
LINE_FIELDS: dict[str, tuple[type, list[Field]]] = {
    d["name"]: (Message, MESSAGE_FIELDS) if d["section"] == "message" else
    (LINE_CLASSES[d["name"]], _schema_fields(d, d["name"]))
    for d in SCHEMA["lines"] if d["section"] != "header"}
PAYLOAD_FIELDS: dict[str, tuple[type, list[Field]]] = {
    d["name"]: (PAYLOAD_CLASSES.get(d["name"], UnknownPayload), _schema_fields(d, "payload"))
    for d in SCHEMA["payloads"]}

WITNESS_FIELDS = _fields("at_ns:i", "at:s", "text:s", "kind:s", "who:s~", "session:i~", "other:s~",
                         "other_session:i~")
