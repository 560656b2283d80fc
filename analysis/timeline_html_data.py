"""What the interactive timeline shows, as plain data: lanes and items for vis-timeline, from one run's trace.

No HTML page here (that is ``timeline_html``): every function is pure, so the tests check the lanes, the tooltips
and what each violation highlights without a browser. The model is the static timeline's own
(``timeline_model``, ``timeline_replication``): the same beliefs, promised windows, holds, roles and ops, judged by
the simulator and never computed again here.

Lanes, top to bottom: violations, one per client, the service holder (a service of several nodes), one per lock
service node or member, sentinels, called services, the resource, and the network (partitions with their groups,
dropped and held messages) when anything happened on it.

Every item carries a tooltip with its fields; its times are given in true time and, from the trace's clock lines,
as the process's own clock read them. An item that belongs to a session knows it, so that clicking a violation
selects everything its witness names: the two sessions' beliefs and windows, their values on the nodes, the service
holder and their operations on the resource.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Iterable, Optional

from analysis import timeline_model as model
from analysis import timeline_replication as repl
from analysis.trace import (Clock, Complete, Fault, Invoke, JudgedRole, JudgedVerdict, Message, RedisReply,
                            RedisRequest, Trace, UnknownPayload)

# One unit on vis-timeline's axis (a "millisecond" of its Date) is this many ns of true time: events are
# microseconds apart, and a 40 s run is then 4e7 units, far inside what a Date holds.
UNIT_NS = 1_000

# Messages that did not arrive, and the network lane's word for each.
UNDELIVERED = {"lost": "lost", "partition-drop": "dropped by a partition", "partition-hold": "held by a partition",
               "drop-crashed": "dropped: the receiver was down"}

KIND_NAMES = {"violation": "Violations", "client": "Clients", "holder": "Service holder", "node": "Lock service",
              "sentinel": "Sentinels", "service": "Called services", "resource": "Resource", "network": "Network"}

# Drops closer together than this between the same two processes are one item (sentinels pinging a dead master
# send hundreds).
DROP_BURST_GAP_NS = 200_000_000


@dataclass
class Item:
    id: str
    group: str
    start_ns: int
    content: str
    title: str
    class_name: str
    end_ns: Optional[int] = None
    sessions: tuple[int, ...] = ()  # the sessions it belongs to: what a witness naming them highlights

    def to_json(self) -> dict:
        out = {"id": self.id, "group": self.group, "start": self.start_ns / UNIT_NS, "content": self.content,
               "title": self.title, "className": self.class_name,
               "type": "point" if self.end_ns is None else "range"}
        if self.end_ns is not None:
            out["end"] = max(self.end_ns, self.start_ns + UNIT_NS) / UNIT_NS  # a range of no length still shows
        return out


@dataclass
class Lane:
    id: str
    kind: str  # a key of KIND_NAMES
    name: str
    title: str = ""


@dataclass
class TimelineData:
    """The page's data: lanes in order, items, violations with the items their witnesses name."""

    title: str
    start_ns: int
    end_ns: int
    view_end_ns: int  # where the page opens: a little past the last activity (the rest is idle)
    lanes: list[Lane] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    violations: list[dict] = field(default_factory=list)

    def lane_ids(self) -> list[str]:
        return [lane.id for lane in self.lanes]

    def to_json(self) -> dict:
        return {
            "title": self.title, "unit_ns": UNIT_NS, "start": self.start_ns / UNIT_NS, "end": self.end_ns / UNIT_NS,
            "view_end": self.view_end_ns / UNIT_NS,
            "groups": [{"id": lane.id, "kind": lane.kind, "name": lane.name, "title": lane.title,
                        "content": html.escape(lane.name)} for lane in self.lanes],
            "items": [i.to_json() for i in self.items],
            "violations": self.violations,
            "kind_names": KIND_NAMES,
        }


# --- tooltips ---------------------------------------------------------------------------------------------------


def when(t: Optional[int], process: Optional[str], clocks: dict[str, Clock]) -> str:
    """An instant in true time and, when the trace has its clock line, as the process's own clocks read it."""
    if t is None:
        return "never"
    text = model.fmt_time(t)
    clock = clocks.get(process) if process else None
    if clock is None:
        return text
    if clock.is_true_time:
        return f"{text} (its clocks read true time)"
    wall, mono = clock.wall(t), clock.monotonic(t)
    if wall == mono:
        return f"{text} · {process}'s clock: {model.fmt_time(wall)}"
    return f"{text} · {process}'s wall clock {model.fmt_time(wall)}, monotonic {model.fmt_time(mono)}"


def tooltip(head: str, rows: Iterable[tuple[str, object]]) -> str:
    """A bold head and a table of fields, escaped: what vis-timeline shows on hover."""
    cells = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(str(v))}</td></tr>" for k, v in rows
                    if v is not None and v != "")
    return f"<b>{html.escape(head)}</b><table>{cells}</table>"


def token_text(token: int) -> Optional[str]:
    return None if token < 0 else str(token)


# --- lanes ------------------------------------------------------------------------------------------------------


class _Builder:
    def __init__(self, trace: Trace):
        self.trace = trace
        self.clocks = trace.clocks
        self.client_index = {c: i for i, c in enumerate(trace.clients)}
        # Read once, used by every lane: each lane picks out its own process's.
        self.messages = trace.of(Message)
        self.pauses = model.pause_intervals(trace)
        self.downs = model.down_intervals(trace)
        self.clock_faults = [f for f in trace.of(Fault) if f.fault in ("clock-jump", "clock-drift", "clock-slew")]
        activity = trace.activity_end_ns
        self.data = TimelineData(title=f"seed {trace.run.seed}", start_ns=0, end_ns=trace.end_ns,
                                 view_end_ns=min(trace.end_ns, max(activity + activity // 10, 1)))
        self.counter = 0

    def add(self, group: str, start: int, content: str, title: str, cls: str, end: Optional[int] = None,
            sessions: Iterable[Optional[int]] = ()) -> Item:
        self.counter += 1
        item = Item(f"i{self.counter}", group, start, content, title, cls, end,
                    tuple(s for s in sessions if s is not None))
        self.data.items.append(item)
        return item

    def colour_class(self, client: Optional[str]) -> str:
        """The client's colour travels as a class, lt-c0, lt-c1... (timeline_html writes their CSS from
        style.CLIENT_COLOURS, the static plots' colours); lt-cx for no client."""
        return f"lt-c{self.client_index[client]}" if client in self.client_index else "lt-cx"

    # -- clients --

    def clients(self) -> None:
        beliefs = model.belief_intervals(self.trace)
        outcomes = {(c.client, c.op): c for c in self.trace.of(Complete)}
        for client in self.trace.clients:
            lane = f"client:{client}"
            self.data.lanes.append(Lane(lane, "client", client, f"client {client}"))
            for b in (b for b in beliefs if b.client == client):
                self.belief(lane, b)
            self.attempts(lane, client, outcomes)
            self.process_faults(lane, client)

    def attempts(self, lane: str, client: str, outcomes: dict) -> None:
        """Each acquire attempt of |client|: a tick, with its outcome and the answers it got."""
        sent = [m for m in self.messages if m.type == "send" and m.sender == client]
        replies = [m for m in self.messages
                   if m.type == "deliver" and m.receiver == client and reply_text(m)]
        for inv in self.trace.of(Invoke):
            if inv.client != client or inv.kind != "acquire":
                continue
            done = outcomes.get((client, inv.op))
            outcome = done.outcome if done else "never completed"
            end = done.t if done else self.data.end_ns
            # The answers to the writes this attempt sent (not the DELs that undo a failed one), matched
            # by request id; one that came after the attempt was over is marked late (the client had
            # already decided).
            asked = {request_id(m) for m in sent if inv.t <= m.t <= end
                     and not (isinstance(m.payload, RedisRequest) and not m.payload.sets)} - {None}
            heard = [reply_text(m) + (" (late)" if m.t > end else "") for m in replies
                     if request_id(m) in asked]
            rows = [("true time", when(inv.t, client, self.clocks)),
                    ("outcome", outcome), ("completed", when(done.t, client, self.clocks) if done else None),
                    ("replies", " · ".join(heard) if heard else "none arrived" if asked else "no request sent")]
            self.add(lane, inv.t, "", tooltip(f"{client}: acquire attempt #{inv.op}", rows),
                     f"lt-attempt lt-attempt-{'ok' if outcome == 'ok' else 'fail'}")

    def belief(self, lane: str, b: model.Belief) -> None:
        token = token_text(b.token)
        label = f"s{b.session}" + (f" · token {token}" if token else "")
        if b.renewals:
            label += f" · renewed {len(b.renewals)}×"
        rows = [("session", b.session), ("value", b.value), ("fencing token", token),
                ("granted", when(b.start_ns, b.client, self.clocks)),
                ("believed until", when(b.end_ns, b.client, self.clocks)), ("why it ended", b.end_reason),
                ("grant promised until", when(b.promised_end_ns, b.client, self.clocks)),
                ("renewals", len(b.renewals) or None)]
        if b.expired_at_grant:
            rows.append(("note", "the lease was already over when acquire returned"))
        self.add(lane, b.start_ns, label, tooltip(f"{b.client} believes it holds the lock", rows),
                 f"lt-belief {self.colour_class(b.client)}", b.end_ns, (b.session,))
        for start, end, by in model.window_bands(b):
            end_ns = self.data.end_ns if end is None else end
            rows = [("session", b.session), ("from", when(start, b.client, self.clocks)),
                    ("until", when(end, b.client, self.clocks)), ("by", by)]
            self.add(lane, start, f"s{b.session} promised" + (" (extended)" if by == "extension" else ""),
                     tooltip(f"{b.client}'s promised window ({by})", rows),
                     "lt-window" + (" lt-window-extension" if by == "extension" else ""), end_ns, (b.session,))

    def process_faults(self, lane: str, process: str) -> None:
        for s in self.pauses:
            if s.what == process:
                rows = [("from", when(s.start_ns, process, self.clocks)), ("to", when(s.end_ns, process, self.clocks)),
                        ("length", model.fmt_duration(s.end_ns - s.start_ns)), ("note", s.note)]
                self.add(lane, s.start_ns, "paused", tooltip(f"{process} paused (stop-the-world)", rows),
                         "lt-pause", s.end_ns)
        for s in self.downs:
            if s.what == process:
                rows = [("crashed", when(s.start_ns, process, self.clocks)),
                        ("restarted", when(s.end_ns, process, self.clocks) if not s.note else None), ("note", s.note)]
                self.add(lane, s.start_ns, "down", tooltip(f"{process} crashed", rows), "lt-down", s.end_ns)
        for f in self.clock_faults:
            if f.target != process:
                continue
            what = (f"wall clock jumps {model.fmt_duration(f.by_ns, signed=True)}" if f.fault == "clock-jump"
                    else model.fmt_drift(f.ppm, "slew" if f.fault == "clock-slew" else "drift"))
            rows = [("true time", when(f.t, process, self.clocks)), ("fault", f.fault)]
            self.add(lane, f.t, what, tooltip(f"{process}: {what}", rows), "lt-clock")

    # -- the lock service --

    def holder(self) -> None:
        if len(self.trace.run.service_nodes) < 2:
            return
        lane = "holder"
        self.data.lanes.append(Lane(lane, "holder", "service holder",
                                    f"whose value a quorum of {', '.join(self.trace.run.service_nodes)} holds"))
        for h in model.holder_intervals(self.trace):
            who = h.client or "no session"
            rows = [("value", h.value), ("session", h.session), ("from", model.fmt_time(h.start)),
                    ("to", model.fmt_time(h.end))]
            self.add(lane, h.start, f"{who}" + (f" · s{h.session}" if h.session is not None else ""),
                     tooltip(f"a quorum holds {who}'s value", rows), f"lt-holder {self.colour_class(h.client)}",
                     h.end, (h.session,))

    def nodes(self) -> None:
        holds = model.hold_intervals(self.trace)
        roles = self.trace.of(JudgedRole)
        show_roles = any(r.role not in ("master",) for r in roles)
        copies = repl.replica_copies(self.trace) if show_roles else []
        for node in self.trace.nodes:
            lane = f"node:{node}"
            kind = self.trace.kind_of(node)
            self.data.lanes.append(Lane(lane, "node", node, f"{kind} node {node}"))
            for h in (h for h in holds if h.node == node):
                who = h.client or "?"
                rows = [("key", h.key), ("value", h.value), ("whose", who), ("session", h.session),
                        ("from", when(h.start_ns, node, self.clocks)), ("to", when(h.end_ns, node, self.clocks)),
                        ("why it went", h.reason or "still held at the run's end"), ("deleted by", h.by)]
                label = f"{who}" + (f" · {h.reason}" if h.reason else "")
                self.add(lane, h.start_ns, label, tooltip(f"{node} holds {who}'s value", rows),
                         f"lt-hold {self.colour_class(h.client)}", h.end_ns, (h.session,))
            for c in (c for c in copies if c.node == node):
                rows = [("key", c.key), ("value", c.value), ("whose", c.client), ("via", c.via),
                        ("lag", model.fmt_duration(c.lag_ns) if c.lag_ns is not None else None),
                        ("from", when(c.start_ns, node, self.clocks)), ("to", when(c.end_ns, node, self.clocks)),
                        ("why it went", c.reason)]
                self.add(lane, c.start_ns, f"{c.client or '?'} · replica copy",
                         tooltip(f"{node}'s replica copy of {c.client or '?'}'s value", rows),
                         f"lt-hold lt-copy {self.colour_class(c.client)}", c.end_ns, (c.session,))
            if show_roles:
                for r in (r for r in roles if r.node == node and r.end > r.start):  # a role left at once: nothing
                    text = role_text(r)
                    rows = [("role", r.role), ("epoch / term", r.epoch), ("of", r.master or r.leader),
                            ("from", model.fmt_time(r.start)), ("to", model.fmt_time(r.end))]
                    lead = r.role in ("master", "leader")
                    self.add(lane, r.start, text, tooltip(f"{node}: {text}", rows),
                             "lt-role" + (" lt-role-lead" if lead else ""), r.end)
            self.process_faults(lane, node)

    def sentinels(self) -> None:
        events = repl.sentinel_events(self.trace)
        for s in self.trace.sentinels:
            lane = f"sentinel:{s}"
            self.data.lanes.append(Lane(lane, "sentinel", s, f"sentinel {s}"))
            for e in (e for e in events if e.sentinel == s):
                self.add(lane, e.t, e.text, tooltip(f"{s}: {e.text}", [("true time", when(e.t, s, self.clocks)),
                                                                       ("what", e.kind), ("epoch", e.epoch)]),
                         "lt-role")
            self.process_faults(lane, s)

    def services(self) -> None:
        calls = repl.service_calls(self.trace)
        for svc in self.trace.services:
            lane = f"service:{svc}"
            self.data.lanes.append(Lane(lane, "service", svc, f"service {svc}"))
            for c in (c for c in calls if c.service == svc):
                end = c.received_ns if c.received_ns is not None else self.data.end_ns
                rows = [("called", when(c.called_ns, c.client, self.clocks)),
                        ("arrived", when(c.arrived_ns, svc, self.clocks)),
                        ("answered", when(c.answered_ns, svc, self.clocks)),
                        ("answer received", when(c.received_ns, c.client, self.clocks))]
                self.add(lane, c.called_ns, f"{c.client}'s call", tooltip(f"{c.client} calls {svc}", rows),
                         f"lt-call {self.colour_class(c.client)}", end)
            self.process_faults(lane, svc)

    # -- the resource --

    def resource(self) -> None:
        pairs = model.ops_with_state(self.trace)
        if not self.trace.resources and not pairs:
            return
        names = self.trace.resources or ["resource"]
        lane = f"resource:{names[0]}"
        self.data.lanes.append(Lane(lane, "resource", names[0], "the protected resource"))
        for op, app in pairs:
            verdict = "accepted" if op.accepted else f"rejected ({op.reject})"
            rows = [("client", op.client), ("session", op.session), ("operation", model.op_text(op, app)),
                    ("fencing token", token_text(op.token)), ("verdict", verdict),
                    ("true time", when(op.t, names[0], self.clocks)), ("state after", model.app_note(app))]
            label = f"{op.client} {op.op}" + ("" if op.accepted else " ✗")
            self.add(lane, op.t, label, tooltip(f"{op.client}'s {op.op} {verdict}", rows),
                     f"lt-op lt-op-{'ok' if op.accepted else 'rejected'} {self.colour_class(op.client)}",
                     sessions=(op.session,))
        for name in names:
            self.process_faults(lane, name)

    # -- the network --

    def network(self) -> None:
        partitions = model.partition_intervals(self.trace)
        undelivered = [m for m in self.messages if m.type in UNDELIVERED]
        if not partitions and not undelivered:
            return
        lane = "network"
        self.data.lanes.append(Lane(lane, "network", "network", "partitions, and messages that did not arrive"))
        groups = {f.partition: f.groups for f in self.trace.of(Fault) if f.fault == "partition"}
        for p in partitions:
            pid = int(p.what.split()[-1])
            sides = groups.get(pid)
            label = " | ".join("{" + ", ".join(g) + "}" for g in sides) if sides else p.what
            rows = [("sides", label), ("mode", p.note or "drop"), ("from", model.fmt_time(p.start_ns)),
                    ("healed", model.fmt_time(p.end_ns) if p.end_ns < self.data.end_ns else "not within the run")]
            self.add(lane, p.start_ns, f"partition {label}", tooltip(f"partition {pid}", rows), "lt-partition",
                     p.end_ns)
        for burst in drop_bursts(undelivered, DROP_BURST_GAP_NS):
            first, last = burst[0], burst[-1]
            what = UNDELIVERED[first.type]
            cls = "lt-held" if first.type == "partition-hold" else "lt-dropped"
            rows = [("from", first.sender), ("to", first.receiver), ("what", what),
                    ("first", model.fmt_time(first.t)), ("last", model.fmt_time(last.t) if len(burst) > 1 else None),
                    ("message", message_text(first) + ("" if len(burst) == 1 else f" … ({len(burst)} messages)"))]
            label = f"{first.sender}→{first.receiver}" + (f" ×{len(burst)}" if len(burst) > 1 else "")
            end = last.t if len(burst) > 1 else None
            self.add(lane, first.t, label, tooltip(f"{len(burst)} message(s) {what}", rows), cls, end)

    # -- violations --

    def violations(self) -> None:
        violated = [v for v in self.trace.of(JudgedVerdict) if v.status == "violated" and v.witness is not None]
        if not violated:
            return
        lane = "violations"
        self.data.lanes.insert(0, Lane(lane, "violation", "violations", "each violated property's first witness"))
        for v in violated:
            w = v.witness
            rows = [("property", f"{v.id} {v.property}"), ("true time", model.fmt_time(w.at_ns)),
                    ("witness", w.text), ("who", w.who), ("session", w.session), ("other", w.other),
                    ("other session", w.other_session), ("violations in the run", v.count)]
            marker = self.add(lane, w.at_ns, v.id, tooltip(f"{v.id} {v.property} violated", rows), "lt-witness")
            named = {s for s in (w.session, w.other_session) if s is not None}
            if named:
                items = [i.id for i in self.data.items if i is not marker and named & set(i.sessions)]
            else:  # P5 over a history without the breaking op names no session: the accepted ops that made it
                items = [i.id for i in self.data.items if "lt-op-ok" in i.class_name and i.start_ns <= w.at_ns]
            self.data.violations.append({
                "id": marker.id, "property": v.property, "property_id": v.id, "at": model.fmt_time(w.at_ns),
                "start": w.at_ns / UNIT_NS, "text": w.text, "items": items,
            })


def role_text(r: JudgedRole) -> str:
    if r.role == "leader":
        return f"leader · term {r.epoch}"
    if r.role == "follower":
        return f"follower of {r.leader} · term {r.epoch}" if r.leader else f"follower · term {r.epoch}"
    if r.role == "candidate":
        return f"candidate · term {r.epoch}"
    if r.role == "replica":
        return f"replica of {r.master} · epoch {r.epoch}"
    return f"master · epoch {r.epoch}"


def reply_text(m: Message) -> Optional[str]:
    """A lock service's answer as the client got it, from its payload fields: "A ok", "B nil", "s1 ok";
    None for anything that is not a lock service's reply."""
    p = m.payload
    if isinstance(p, RedisReply):
        detail = {"integer": str(p.integer), "bulk": p.value or "", "error": p.error or "error"}.get(p.reply, p.reply)
        return f"{m.sender} {detail}"
    if isinstance(p, UnknownPayload) and p.kind == "store-reply":
        return f"{m.sender} {p.fields.get('status', '?')}"
    return None


def request_id(m: Message) -> Optional[int]:
    p = m.payload
    if isinstance(p, UnknownPayload):
        rid = p.fields.get("request_id")
        return rid if isinstance(rid, int) else None
    return getattr(p, "request_id", None)


def message_text(m: Message) -> str:
    """What a message was, from its payload's fields (its "msg" text is for people reading the trace: never read)."""
    p = m.payload
    if isinstance(p, RedisRequest):
        return " ".join(x for x in (p.cmd, p.key, p.value) if x)
    return m.kind or "message"


def drop_bursts(messages: list[Message], gap_ns: int) -> list[list[Message]]:
    """Undelivered messages in runs per (from, to, what happened), a run ending at a gap longer than gap_ns: one
    item per pair of processes (the static plot's lane pools every pair)."""
    return [run for _, run in repl.bursts_by(messages, lambda m: (m.sender, m.receiver, m.type), gap_ns)]


def timeline_data(trace: Trace) -> TimelineData:
    """The lanes and items of one run, with the violations its own verdict lines judged (raises TraceError for a
    trace without judged lines)."""
    trace.require_judged()
    b = _Builder(trace)
    b.clients()
    b.holder()
    b.nodes()
    b.sentinels()
    b.services()
    b.resource()
    b.network()
    b.violations()  # last: it names items of every lane
    return b.data
