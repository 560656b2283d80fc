"""Reading what the simulator writes: a run's trace and its verdicts.

A trace is JSON Lines, one object per line, in the format the simulator
declares (``locksim trace-schema``, kept as ``trace_schema.json``; docs/trace.md): a
``run`` header first (processes and their kinds, lock keys, the lock
service's nodes and quorum, the application), then every message and every
recorded fact in true-time order, an ``end`` line, one ``promise`` line per
grant and lease extension, and — in traces of ``locksim run`` — the *judged
lines*: what the simulator's checkers computed about the run (each session's
belief interval and promised window, the service holder over time, each Redis
node's roles, each property's verdict and first witness). ``t`` is always
true time in nanoseconds.

A message line carries its payload as fields after ``kind`` (``redis-request``
with ``cmd``, ``key``, ``value``...; ``info-reply`` with ``role``; ``switch-master``
with ``old_master`` and ``new_master``...); its ``msg`` is the same in words,
for people, and nothing here parses it.

Each line becomes a small frozen record (``analysis/trace_records.py``:
``Grant``, ``KeyHeld``, ``Message`` with a ``RedisRequest`` payload,
``JudgedBelief``...) so plotting code reads ``grant.validity_ns`` rather than
``line["validity_ns"]``, and a malformed line is reported once, here, as
``file:line: what is wrong``. ``Trace.frame(...)`` turns one kind of record
into a pandas DataFrame. Line types and payload kinds this reader does not
know (a newer simulator) are kept as ``Unknown`` / ``UnknownPayload``, not
rejected: a plot that does not need them should still draw.

Older traces still load: message lines without fields get ``payload`` None,
promise lines without ``from`` mean ``grant``. What needs the judged lines
(the timeline) asks ``Trace.require_judged()``, which refuses a trace without
them and says so.

The verdicts come from the trace's own verdict lines (``Trace.verdicts()``)
or from the simulator's ``--json`` output (``load_verdicts``): per property,
status, count and first witness.

Times stay integers (ns) in records; conversion to seconds happens only where
something is drawn.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional, Union

import pandas as pd

from analysis import results
from analysis.trace_records import (  # noqa: F401  (re-exported: analysis.trace is where records are imported from)
    FORMAT, JUDGED_CLASSES, LINE_FIELDS, PAYLOAD_FIELDS, WITNESS_FIELDS, App, BeliefEnd, Clock, Complete, End, Extend,
    Fault, FaultFired, FaultSpan, Field, GetMaster, GiveUp, Grant, Invoke, IsMasterDown, Judged, JudgedBelief,
    JudgedHolder, JudgedRole, JudgedVerdict, JudgedWindow, KeyDropped, KeyHeld, MasterDownReply, MasterIs, Message, Op,
    Info, InfoReply, Payload, PhaseReached, Ping, Pong, Process, Promise, Record, RedisReply, RedisRequest, Release, ReplicaOf,
    Replicated, ReplicationAck, ReplicationEntry, ReplicationGetAck, ResourceReply, ResourceRequest, Role, Run,
    ServiceAnswer, ServiceCall, StoreSession, SwitchMaster, UnknownPayload, Want, Witness)

__all__ = [
    "TraceError", "Process", "Run", "Clock", "Message", "Invoke", "Complete", "Want", "GiveUp", "Grant", "Extend",
    "BeliefEnd", "Release", "KeyHeld", "KeyDropped", "Replicated", "Role", "Op", "App", "Fault", "FaultSpan", "PhaseReached",
    "FaultFired", "End", "Promise", "StoreSession", "Judged", "JudgedBelief", "JudgedWindow", "JudgedHolder", "JudgedRole",
    "JudgedVerdict", "Witness", "RedisRequest", "RedisReply", "ReplicationEntry", "ReplicationAck",
    "ReplicationGetAck", "ReplicaOf", "Ping", "Pong", "Info", "InfoReply", "IsMasterDown", "MasterDownReply", "SwitchMaster", "GetMaster",
    "MasterIs", "ResourceRequest", "ResourceReply", "ServiceCall", "ServiceAnswer", "UnknownPayload", "Trace", "load",
    "parse_lines", "PROPERTIES", "PropertyVerdict", "load_verdicts", "is_background", "JUDGED_TYPES",
]


class TraceError(Exception):
    """A file that is missing, unreadable or not what it claims to be."""


_TYPE_OF_CLASS = {cls: name for name, (cls, _) in LINE_FIELDS.items() if cls is not Message}
JUDGED_TYPES = tuple(_TYPE_OF_CLASS[cls] for cls in JUDGED_CLASSES)


def _typed(value: Any, want: type) -> bool:
    if want is int:  # JSON true/false are bools, which Python also calls ints
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, want)


def _read_fields(obj: dict, fields: list[Field], what: str, noun: str, where: str) -> dict[str, Any]:
    """The attributes of a record from a JSON object, checked against its field table; ``what`` ("grant") and
    ``noun`` (line, message) name it in errors."""
    args: dict[str, Any] = {}
    for f in fields:
        if f.key not in obj:
            if f.required:
                raise TraceError(f"{where}: {' '.join(filter(None, (what, noun)))} lacks \"{f.key}\"")
            continue  # the dataclass default
        value = obj[f.key]
        if value is None and f.nullable:
            args[f.name] = None
        elif not _typed(value, f.type):
            raise TraceError(f"{where}: {what} field \"{f.key}\" should be {f.type.__name__}, got {value!r}")
        else:
            args[f.name] = value
    return args


def _payload(obj: dict, where: str) -> Optional[Payload]:
    kind = obj.get("kind")
    if kind is None:
        return None  # written before message lines had fields
    if not isinstance(kind, str):
        raise TraceError(f"{where}: message field \"kind\" should be str, got {kind!r}")
    spec = PAYLOAD_FIELDS.get(kind)
    if spec is None:
        raise TraceError(f"{where}: unknown message kind {kind!r} (trace format {FORMAT} knows "
                         f"{', '.join(sorted(PAYLOAD_FIELDS))}): a trace from a newer locksim?")
    cls, fields = spec
    args = _read_fields(obj, fields, f"\"{kind}\"", "message", where)
    if cls is UnknownPayload:  # declared, but nothing here draws it: kept as its fields
        return UnknownPayload(kind, {"kind": kind, **args})
    return cls(**args)


def _record(obj: dict, where: str) -> Record:
    t = obj.get("t")
    if not _typed(t, int):
        raise TraceError(f"{where}: missing or non-integer \"t\"")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise TraceError(f"{where}: missing \"type\"")
    spec = LINE_FIELDS.get(kind)
    if spec is None:
        raise TraceError(f"{where}: unknown line type {kind!r} (trace format {FORMAT}; "
                         "locksim trace-schema lists the line types): a trace from a newer locksim?")
    cls, fields = spec
    args: dict[str, Any] = {"t": t, **_read_fields(obj, fields, f"\"{kind}\"", "line", where)}
    if cls is Message:
        args["type"] = kind
        args["payload"] = _payload(obj, where)
    elif cls is Role:
        roles = ("master", "replica", "leader", "follower", "candidate")
        if args["role"] not in roles:
            raise TraceError(f"{where}: \"role\" field \"role\" should be one of {', '.join(roles)}, got {args['role']!r}")
        if args["role"] == "replica" and args.get("master") is None:
            raise TraceError(f"{where}: \"role\" line of a replica lacks \"master\"")
        if args["role"] in ("master", "replica") and args.get("epoch") is None:
            raise TraceError(f"{where}: \"role\" line of a Redis node lacks \"epoch\"")
        if args["role"] in ("leader", "follower", "candidate") and args.get("term") is None:
            raise TraceError(f"{where}: \"role\" line of a store member lacks \"term\"")
        args.setdefault("master", None)
    elif cls is Promise:
        if args["promised_end"] < 0:
            args["promised_end"] = None
        if args["origin"] not in ("grant", "extend"):
            raise TraceError(f"{where}: \"promise\" field \"from\" should be grant or extend, got {args['origin']!r}")
    elif cls is Fault:
        if "amount" in obj:
            raise TraceError(f"{where}: a fault line with \"amount\" comes from a locksim older than typed fault lines "
                             "(length_ns, down_for_ns, by_ns, ppm, partition); run the scenario again to write it anew")
        args.setdefault("target", None)
        if "groups" in args:
            args["groups"] = _name_lists(args["groups"], "\"fault\" field \"groups\"", where)
    elif cls is Clock:
        args["segments"] = _int_tuples(args["segments"], 3, "\"clock\" field \"segments\"", where)
        args["jumps"] = _int_tuples(args["jumps"], 2, "\"clock\" field \"jumps\"", where)
        if not args["segments"] or args["segments"][0][0] != 0:
            raise TraceError(f"{where}: \"clock\" line's segments should start at true time 0")
    elif cls is JudgedVerdict and args["witness"] is not None:
        args["witness"] = Witness(**_read_fields(args["witness"], WITNESS_FIELDS, "\"verdict\" witness", "", where))
    return cls(**args)


def _int_tuples(value: list, size: int, what: str, where: str) -> tuple:
    """[[1, 2, 3], ...] -> ((1, 2, 3), ...), each entry a list of |size| integers."""
    if not all(isinstance(e, list) and len(e) == size and all(_typed(x, int) for x in e) for e in value):
        raise TraceError(f"{where}: {what} should be lists of {size} integers, got {value!r}")
    return tuple(tuple(e) for e in value)


def _name_lists(value: list, what: str, where: str) -> tuple:
    """[["M", "c1"], ["R"]] -> (("M", "c1"), ("R",))."""
    if not all(isinstance(g, list) and all(isinstance(n, str) for n in g) for g in value):
        raise TraceError(f"{where}: {what} should be lists of process names, got {value!r}")
    return tuple(tuple(g) for g in value)


def _run_header(obj: dict, where: str) -> Run:
    written = obj.get("format", FORMAT)  # a trace from before the format had a version: read as far as it goes
    if written != FORMAT:
        raise TraceError(f"{where}: trace format {written!r}, and this analysis reads format {FORMAT}: "
                         "write the trace again with this locksim (or read it with the locksim that wrote it)")
    try:
        processes = tuple(Process(str(p["name"]), str(p["kind"])) for p in obj["processes"])
        return Run(seed=str(obj.get("seed", "?")), processes=processes,
                   keys=tuple(str(k) for k in obj.get("keys", [])),
                   service_nodes=tuple(str(n) for n in obj.get("service_nodes", [])),
                   quorum=int(obj.get("quorum", 1)), app=str(obj.get("app", "none")),
                   service_masters=tuple(None if m is None else str(m) for m in obj.get("service_masters", [])),
                   history=None if obj.get("history") is None else str(obj["history"]),
                   service_recorded=bool(obj.get("service_recorded", True)))
    except (KeyError, TypeError, ValueError) as e:
        raise TraceError(f"{where}: malformed \"run\" header ({e})") from None


def is_background(m: Message, kinds: dict[str, str]) -> bool:
    """Whether a message is a heartbeat — traffic that repeats for as long as the run lasts and says nothing
    happened: a ping, pong, INFO or its reply, a replica ack (not an attach), or a sentinel's hello (+switch-master) to a peer
    sentinel
    (the announcement that matters goes to the clients). kinds: process name -> kind."""
    p = m.payload
    if isinstance(p, (Ping, Pong, Info, InfoReply, ReplicationGetAck)) or (isinstance(p, ReplicationAck) and not p.attach):
        return True
    return isinstance(p, SwitchMaster) and kinds.get(m.sender) == "sentinel" and kinds.get(m.receiver) == "sentinel"


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

        Quiescent state samples, the end line, spans (a span ends with a fault line at its end, or with the run),
        promises, clock lines and judged lines are bookkeeping, not activity; nor are heartbeats (``is_background``: pings, replica acks, sentinel hellos), which go on until
        the run ends.
        """
        kinds = {p.name: p.kind for p in self.run.processes}
        busy = [r.t for r in self.records
                if not isinstance(r, (End, FaultSpan, Promise, Clock, *JUDGED_CLASSES))
                and not (isinstance(r, App) and r.quiescent) and not (isinstance(r, Message) and is_background(r, kinds))]
        return max(busy, default=self.end_ns)

    @property
    def end_ns(self) -> int:
        """When the run ended: its "end" line, else the latest time seen."""
        for r in reversed(self.records):
            if isinstance(r, End):
                return r.t
        return max((r.t for r in self.records if not isinstance(r, Promise)), default=0)

    @property
    def clocks(self) -> dict[str, Clock]:
        """Each process's clock by name, from the clock lines; empty for a trace without them."""
        return {c.process: c for c in self.of(Clock)}

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

    # what the checkers judged ----------------------------------------------------

    @property
    def judged(self) -> Optional[Judged]:
        """The "judged" line that heads the judged lines; None in a trace without them."""
        return next((r for r in self.records if isinstance(r, Judged)), None)

    def require_judged(self) -> Judged:
        """The "judged" line, after checking that every judged line it announces is there; raises TraceError for a
        trace without them (written by an older locksim, or not by locksim run) or with some missing."""
        head = self.judged
        if head is None:
            raise TraceError(f"{self.source}: no judged lines ({', '.join(JUDGED_TYPES[1:])}): the timeline draws what "
                             "the simulator's checkers computed, and this trace does not carry it; re-run locksim "
                             "(locksim run ... --trace FILE) to get a trace with judged lines")
        for cls, want in ((JudgedBelief, head.sessions), (JudgedWindow, head.promised_windows),
                          (JudgedHolder, head.holders), (JudgedRole, head.role_intervals),
                          (JudgedVerdict, head.verdicts)):
            got = len(self.of(cls))
            if got != want:
                raise TraceError(f"{self.source}: the \"judged\" line announces {want} \"{_TYPE_OF_CLASS[cls]}\" "
                                 f"lines, the trace has {got} (cut short?)")
        return head

    def verdicts(self) -> list["PropertyVerdict"]:
        """The verdicts the trace carries (its "verdict" lines), in P1..P5 order; [] without judged lines."""
        return [PropertyVerdict(name=v.property, id=v.id, status=v.status, count=v.count,
                                witness_ns=v.witness.at_ns if v.witness else None,
                                witness_text=v.witness.text if v.witness else "")
                for v in self.of(JudgedVerdict)]

    # tables ------------------------------------------------------------------------

    def frame(self, what: Union[str, type]) -> pd.DataFrame:
        """The records of one line type ("grant", "send", ...) or class, as a table."""
        if isinstance(what, str):
            if what not in LINE_FIELDS:
                raise KeyError(f"unknown line type {what!r}")
            cls = LINE_FIELDS[what][0]
            rows = [r for r in self.records if isinstance(r, cls) and (cls is not Message or r.type == what)]
        else:
            cls = what
            rows = self.of(cls)
        columns = [f.name for f in dataclasses.fields(cls)]
        frame = pd.DataFrame([[getattr(r, c) for c in columns] for r in rows], columns=columns)
        if cls is Message:
            frame["kind"] = [r.kind for r in rows]
        for column in ("promised_end", "end", "released", "extended_at", "session"):
            if column in frame and cls is not Message:
                frame[column] = frame[column].astype("Int64")
        return frame

    def frames(self) -> dict[str, pd.DataFrame]:
        """Every line type present, as a table each."""
        present = {r.type if isinstance(r, Message) else _TYPE_OF_CLASS[type(r)] for r in self.records}
        return {name: self.frame(name) for name in sorted(present) if name in LINE_FIELDS}


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

# The five properties (docs/properties.md), in table order: JSON name -> id.
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
        doc = results.read_json(path)
    except (results.ResultsError, UnicodeDecodeError) as e:
        raise TraceError(f"{path}: not a verdicts file ({e})") from None
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
