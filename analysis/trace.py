"""Reading what the simulator writes: a run's trace and its verdicts.

A trace is JSON Lines, one object per line, written by
``sim/world/trace_format.cc``: a ``run`` header first (processes
and their kinds, lock keys, the lock service's nodes and quorum, the
application), then every message and every recorded fact in true-time order
(ties in the order the engine produced them), an ``end`` line, and after it
one ``promise`` line per grant and per lease extension (``extend`` line) —
the true instant at which the client's own clock said that lease was over,
which only the world can know once the run is finished; its ``from`` says
which (``grant`` or ``extend``; traces older than extensions have no ``from``
and mean ``grant``). ``t`` is always true time in nanoseconds.

Replicated deployments (a master, its replicas, Sentinel) add ``replicated``
lines (a replica applied an entry of its master's stream; replicas record no
key-held / key-dropped, only masters are the lock service), ``role`` lines (a
promotion or a demotion / re-pointing, with the sentinels' epoch) and the
key-dropped reason ``demoted``; their control traffic (``repl SET ... @3``,
``REPLCONF ACK 3``, ``PING``, ``is-master-down-by-addr M epoch 1 (vote?)``,
``+switch-master M -> R``...) is ordinary message lines. Processes of kind
``sentinel`` and ``service`` (a service the clients call, e.g. identity) may
appear in the header.

Each line becomes a small frozen record (``Grant``, ``KeyHeld``, ``Fault``…)
so plotting code reads ``grant.validity_ns`` rather than ``line["validity_ns"]``,
and a malformed line is reported once, here, as ``file:line: what is wrong``.
``Trace.frame(...)`` turns one kind of record into a pandas DataFrame for
plots that prefer tables. Line types this reader does not know (a newer
simulator) are kept as ``Unknown`` records, not rejected: a plot that does not
need them should still draw.

The verdicts (the simulator's ``--json`` output) are read by
``load_verdicts``: per scenario variant, each property's status, count and
first witness.

Times stay integers (ns) in records; conversion to seconds happens only where
something is drawn.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Union

import pandas as pd

__all__ = [
    "TraceError", "Process", "Run", "Message", "Invoke", "Complete", "Want", "GiveUp", "Grant", "Extend",
    "BeliefEnd", "Release", "KeyHeld", "KeyDropped", "Replicated", "Role", "Op", "App", "Fault", "PhaseReached",
    "End", "Promise", "Unknown", "Trace", "load", "parse_lines", "PROPERTIES", "PropertyVerdict",
    "load_verdicts", "is_background",
]


class TraceError(Exception):
    """A file that is missing, unreadable or not what it claims to be."""


# --- records -----------------------------------------------------------------
# One frozen dataclass per line type. Field names follow the JSON keys except
# where those are Python keywords or ambiguous ("from"/"to" -> sender/receiver).

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

    def names_of(self, kind: str) -> list[str]:
        return [p.name for p in self.processes if p.kind == kind]


@dataclass(frozen=True)
class Message:
    t: int
    type: str  # send | deliver | lost | partition-drop | partition-hold | drop-crashed
    sender: str
    receiver: str
    msg: str


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
    reason: str  # released | validity-check | crashed | abandoned


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
    """A node's role changed: promoted to master (master None) or made a replica of master, in a sentinel epoch."""

    t: int
    node: str
    role: str  # master | replica
    master: Optional[str]  # the node it now replicates (role replica)
    epoch: int


@dataclass(frozen=True)
class Op:
    t: int
    session: int
    client: str
    op: str
    accepted: bool
    reject: str  # none | stale-token | mark-mismatch | out-of-stock
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
    t: int
    fault: str  # pause | resume | crash | restart | clock-jump | clock-drift | clock-slew | partition | heal
    target: Optional[str]  # None for partition / heal
    # ns for pause, crash (down for; < 0 never restarts) and clock-jump; ppm for drift and slew (the rate during the
    # slew; its end is a clock-drift back to the old rate); id for partitions
    amount: int
    mode: Optional[str] = None  # partition: drop | hold


@dataclass(frozen=True)
class PhaseReached:
    t: int
    process: str
    phase: str


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
class Unknown:
    t: int
    type: str
    fields: dict = field(compare=False)


Record = Union[Message, Invoke, Complete, Want, GiveUp, Grant, Extend, BeliefEnd, Release, KeyHeld, KeyDropped,
               Replicated, Role, Op, App, Fault, PhaseReached, End, Promise, Unknown]

MESSAGE_TYPES = ("send", "deliver", "lost", "partition-drop", "partition-hold", "drop-crashed")

# type -> (record class, [(json key, attribute, python type, required)])
_S, _I, _B = str, int, bool
_FIELDS: dict[str, tuple[type, list[tuple[str, str, type, bool]]]] = {
    "invoke": (Invoke, [("client", "client", _S, True), ("op", "op", _I, True), ("kind", "kind", _S, True)]),
    "complete": (Complete, [("client", "client", _S, True), ("op", "op", _I, True), ("kind", "kind", _S, True),
                            ("outcome", "outcome", _S, True)]),
    "want": (Want, [("client", "client", _S, True)]),
    "give-up": (GiveUp, [("client", "client", _S, True)]),
    "grant": (Grant, [("session", "session", _I, True), ("client", "client", _S, True), ("value", "value", _S, True),
                      ("token", "token", _I, True), ("validity_ns", "validity_ns", _I, True),
                      ("clock", "clock", _S, True)]),
    "extend": (Extend, [("session", "session", _I, True), ("client", "client", _S, True),
                        ("clock", "clock", _S, True)]),
    "belief-end": (BeliefEnd, [("session", "session", _I, True), ("client", "client", _S, True),
                               ("reason", "reason", _S, True)]),
    "release": (Release, [("session", "session", _I, True), ("client", "client", _S, True)]),
    "key-held": (KeyHeld, [("node", "node", _S, True), ("key", "key", _S, True), ("value", "value", _S, True)]),
    "key-dropped": (KeyDropped, [("node", "node", _S, True), ("key", "key", _S, True), ("value", "value", _S, True),
                                 ("reason", "reason", _S, True)]),
    "replicated": (Replicated, [("node", "node", _S, True), ("key", "key", _S, True), ("value", "value", _S, True),
                                ("present", "present", _B, True), ("offset", "offset", _I, True)]),
    "role": (Role, [("node", "node", _S, True), ("role", "role", _S, True), ("master", "master", _S, False),
                    ("epoch", "epoch", _I, True)]),
    "op": (Op, [("session", "session", _I, True), ("client", "client", _S, True), ("op", "op", _S, True),
                ("accepted", "accepted", _B, True), ("reject", "reject", _S, True), ("token", "token", _I, True)]),
    "app": (App, [("app", "app", _S, True), ("counter", "counter", _I, True), ("increments", "increments", _I, True),
                  ("elements", "elements", _I, True), ("size", "size", _I, True), ("stock", "stock", _I, True),
                  ("quiescent", "quiescent", _B, True)]),
    "fault": (Fault, [("fault", "fault", _S, True), ("target", "target", _S, False), ("amount", "amount", _I, True),
                      ("mode", "mode", _S, False)]),
    "phase": (PhaseReached, [("process", "process", _S, True), ("phase", "phase", _S, True)]),
    "end": (End, []),
    "promise": (Promise, [("session", "session", _I, True), ("client", "client", _S, True),
                          ("promised_end", "promised_end", _I, True), ("from", "origin", _S, False),
                          ("at", "at", _I, False)]),
}
for _type in MESSAGE_TYPES:
    _FIELDS[_type] = (Message, [("from", "sender", _S, True), ("to", "receiver", _S, True), ("msg", "msg", _S, True)])

# Record class -> the line type(s) it comes from, for Trace.frame("grant").
_TYPE_OF_CLASS = {cls: name for name, (cls, _) in _FIELDS.items() if cls is not Message}


def _typed(value: Any, want: type) -> bool:
    if want is int:  # JSON true/false are bools, which Python also calls ints
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, want)


def _record(obj: dict, where: str) -> Record:
    t = obj.get("t")
    if not _typed(t, int):
        raise TraceError(f"{where}: missing or non-integer \"t\"")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise TraceError(f"{where}: missing \"type\"")
    spec = _FIELDS.get(kind)
    if spec is None:
        return Unknown(t, kind, dict(obj))
    cls, fields = spec
    args: dict[str, Any] = {"t": t}
    if cls is Message:
        args["type"] = kind
    for key, attr, want, required in fields:
        if key not in obj:
            if required:
                raise TraceError(f"{where}: \"{kind}\" line lacks \"{key}\"")
            args[attr] = None
            continue
        value = obj[key]
        if not _typed(value, want):
            raise TraceError(f"{where}: \"{kind}\" field \"{key}\" should be {want.__name__}, got {value!r}")
        args[attr] = value
    if cls is Role:
        if args["role"] not in ("master", "replica"):
            raise TraceError(f"{where}: \"role\" field \"role\" should be master or replica, got {args['role']!r}")
        if args["role"] == "replica" and args["master"] is None:
            raise TraceError(f"{where}: \"role\" line of a replica lacks \"master\"")
    if cls is Promise:
        if args["promised_end"] < 0:
            args["promised_end"] = None
        if args["origin"] is None:  # written before lease extensions existed
            args["origin"] = "grant"
        elif args["origin"] not in ("grant", "extend"):
            raise TraceError(f"{where}: \"promise\" field \"from\" should be grant or extend, got {args['origin']!r}")
    return cls(**args)


def _run_header(obj: dict, where: str) -> Run:
    try:
        processes = tuple(Process(str(p["name"]), str(p["kind"])) for p in obj["processes"])
        return Run(seed=str(obj.get("seed", "?")), processes=processes,
                   keys=tuple(str(k) for k in obj.get("keys", [])),
                   service_nodes=tuple(str(n) for n in obj.get("service_nodes", [])),
                   quorum=int(obj.get("quorum", 1)), app=str(obj.get("app", "none")))
    except (KeyError, TypeError, ValueError) as e:
        raise TraceError(f"{where}: malformed \"run\" header ({e})") from None


# Heartbeats: traffic that repeats for as long as the run lasts (sentinel pings, replica acks, the sentinels' hello
# messages that repeat the current configuration). It says nothing happened, so it does not count as activity.
_BACKGROUND_PREFIXES = ("PING", "PONG", "REPLCONF ACK", "REPLCONF GETACK")


def is_background(m: Message, kinds: dict[str, str]) -> bool:
    """Whether a message is a heartbeat: a ping, pong or replica ack, or a sentinel's hello (+switch-master) to a
    peer sentinel (the announcement that matters goes to the clients). kinds: process name -> kind."""
    if m.msg.startswith(_BACKGROUND_PREFIXES):
        return True
    return (m.msg.startswith("+switch-master") and kinds.get(m.sender) == "sentinel"
            and kinds.get(m.receiver) == "sentinel")


# --- the trace ---------------------------------------------------------------

@dataclass
class Trace:
    """One run: its header and every later line as a record, in file order."""

    source: str
    run: Run
    records: list[Record]

    def of(self, *classes: type) -> list:
        """The records of the given classes, in file order."""
        return [r for r in self.records if isinstance(r, classes)]

    @property
    def activity_end_ns(self) -> int:
        """The last instant anything happened: the run's end minus any idle tail.

        Quiescent state samples, the end line and promises are bookkeeping, not activity; nor are heartbeats
        (``is_background``: pings, replica acks, sentinel hellos), which go on until the run ends.
        """
        kinds = {p.name: p.kind for p in self.run.processes}
        busy = [r.t for r in self.records
                if not isinstance(r, (End, Promise)) and not (isinstance(r, App) and r.quiescent)
                and not (isinstance(r, Message) and is_background(r, kinds))]
        return max(busy, default=self.end_ns)

    @property
    def end_ns(self) -> int:
        """When the run ended: its "end" line, else the latest time seen."""
        for r in reversed(self.records):
            if isinstance(r, End):
                return r.t
        return max((r.t for r in self.records if not isinstance(r, Promise)), default=0)

    @property
    def clients(self) -> list[str]:
        return self.run.names_of("client")

    @property
    def nodes(self) -> list[str]:
        """The Redis nodes: the service's nodes first, in its order, then any other."""
        nodes = list(self.run.service_nodes)
        nodes += [n for n in self.run.names_of("redis") if n not in nodes]
        return nodes

    @property
    def resources(self) -> list[str]:
        return self.run.names_of("resource")

    @property
    def sentinels(self) -> list[str]:
        return self.run.names_of("sentinel")

    @property
    def services(self) -> list[str]:
        """Services the clients call from their critical sections (kind "service", e.g. an identity service)."""
        return self.run.names_of("service")

    def kind_of(self, process: str) -> str:
        for p in self.run.processes:
            if p.name == process:
                return p.kind
        return "other"

    def frame(self, what: Union[str, type]) -> pd.DataFrame:
        """The records of one line type ("grant", "send", ...) or class, as a table."""
        if isinstance(what, str):
            if what not in _FIELDS:
                raise KeyError(f"unknown line type {what!r}")
            cls = _FIELDS[what][0]
            rows = [r for r in self.records if isinstance(r, cls) and (cls is not Message or r.type == what)]
        else:
            cls = what
            rows = self.of(cls)
        columns = [f.name for f in dataclasses.fields(cls)]
        frame = pd.DataFrame([dataclasses.astuple(r) if cls is not Unknown else (r.t, r.type, r.fields) for r in rows],
                             columns=columns)
        if "promised_end" in frame:
            frame["promised_end"] = frame["promised_end"].astype("Int64")
        return frame

    def frames(self) -> dict[str, pd.DataFrame]:
        """Every line type present, as a table each."""
        present = {r.type if isinstance(r, (Message, Unknown)) else _TYPE_OF_CLASS[type(r)] for r in self.records}
        return {name: self.frame(name) for name in sorted(present) if name in _FIELDS}


def parse_lines(lines: Iterable[str], source: str = "<trace>") -> Trace:
    """Parses a trace's lines; raises TraceError naming source:line on bad input."""
    run: Optional[Run] = None
    records: list[Record] = []
    for number, text in enumerate(lines, start=1):
        text = text.strip()
        if not text:
            continue
        where = f"{source}:{number}"
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            if run is None:
                raise TraceError(f"{where}: not a locksim trace (not JSON: {e.msg})") from None
            raise TraceError(f"{where}: not JSON ({e.msg})") from None
        if not isinstance(obj, dict):
            raise TraceError(f"{where}: not a locksim trace (a line is not a JSON object)")
        if run is None:
            if obj.get("type") != "run":
                raise TraceError(f"{where}: not a locksim trace (the first line is not a \"run\" header)")
            run = _run_header(obj, where)
            continue
        records.append(_record(obj, where))
    if run is None:
        raise TraceError(f"{source}: not a locksim trace (empty)")
    return Trace(source=source, run=run, records=records)


def load(path: Union[str, Path]) -> Trace:
    """Reads a trace file; raises TraceError if it is missing or malformed."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8") as f:
            return parse_lines(f, source=str(path))
    except OSError as e:
        raise TraceError(f"{path}: cannot read ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise TraceError(f"{path}: not a locksim trace (not UTF-8 text)") from None


# --- verdicts ----------------------------------------------------------------

# The properties of ARCHITECTURE.md, in table order: JSON name -> id.
PROPERTIES: dict[str, str] = {
    "grant-exclusive": "P1",
    "belief-exclusive": "P2",
    "resource-exclusive": "P3",
    "resource-current": "P4",
    "invariant": "P5",
}


@dataclass(frozen=True)
class PropertyVerdict:
    name: str  # "grant-exclusive"
    id: str  # "P1"
    status: str  # as written: "violated", "holds", ...
    count: int
    witness_ns: Optional[int]
    witness_text: str

    @property
    def violated(self) -> bool:
        return self.status.lower() in ("violated", "v")


def load_verdicts(path: Union[str, Path], variant: Optional[str] = None) -> tuple[str, list[PropertyVerdict]]:
    """The verdicts of one variant from a ``--json`` file: (variant name, verdicts).

    Without ``variant`` the file must hold exactly one. Raises TraceError on a
    missing file, bad JSON, or an unknown or ambiguous variant.
    """
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise TraceError(f"{path}: cannot read ({e.strerror or e})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise TraceError(f"{path}: not a verdicts file (not JSON: {e})") from None
    variants = doc.get("variants") if isinstance(doc, dict) else None
    if not isinstance(variants, list) or not all(isinstance(v, dict) for v in variants):
        raise TraceError(f"{path}: not a verdicts file (no \"variants\" list)")
    names = [str(v.get("name", "?")) for v in variants]
    if variant is None:
        if len(variants) != 1:
            raise TraceError(f"{path}: holds {len(variants)} variants ({', '.join(names)}); choose one with --variant")
        chosen = variants[0]
    elif variant in names:
        chosen = variants[names.index(variant)]
    else:
        raise TraceError(f"{path}: no variant {variant!r} (it has: {', '.join(names) or 'none'})")
    verdicts = chosen.get("verdicts")
    if not isinstance(verdicts, dict):
        raise TraceError(f"{path}: variant {chosen.get('name')!r} has no \"verdicts\" object")
    out = []
    ordered = [n for n in PROPERTIES if n in verdicts] + [n for n in verdicts if n not in PROPERTIES]
    for name in ordered:
        v = verdicts[name]
        if not isinstance(v, dict):
            raise TraceError(f"{path}: verdict {name!r} is not an object")
        witness = v.get("witness") if isinstance(v.get("witness"), dict) else {}
        at = witness.get("at_ns")
        out.append(PropertyVerdict(name=name, id=PROPERTIES.get(name, name), status=str(v.get("status", "?")),
                                   count=int(v.get("count", 0) or 0),
                                   witness_ns=at if _typed(at, int) else None,
                                   witness_text=str(witness.get("text", ""))))
    return str(chosen.get("name", "?")), out
