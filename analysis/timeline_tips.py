"""What the timeline's marks say on hover in its SVG (``analysis/timeline_svg.py``): the facts behind each mark.

A label on the picture is short ("session 1 · token 3"); its hover text has the whole record: whose it is, from
when to when in true time, and why it ended or what the resource answered. Every text here is built from the plain
data the picture draws (``timeline_model``, ``timeline_replication``) and the trace's judged lines — nothing is
judged again. Times are true time; lines are separated by newlines, which browsers keep in a tooltip.

No matplotlib here: plain functions from records to text, tested without drawing.
"""

from __future__ import annotations

from typing import Optional, Sequence

from analysis.timeline_model import (
    Belief, Hold, Span, app_note, fmt_drift, fmt_duration, fmt_time, reasons_text)
from analysis.timeline_replication import Call, ReplicaCopy, RoleChange, SentinelEvent
from analysis.trace import App, Fault, JudgedHolder, Message, Op, PropertyVerdict

# How a belief's judged stop reads in a sentence.
BELIEF_STOP = {
    "released": "released",
    "validity-check": "its validity check found the lease over",
    "session-lost": "a check found its client library saying the session is lost",
    "crashed": "the client recorded it lost (crashed)",
    "client-crash": "its client crashed",
    "abandoned": "abandoned: the next cycle began without a release",
    "run-end": "still believed when the run ended",
}


def _span(start_ns: int, end_ns: Optional[int]) -> str:
    if end_ns is None:
        return f"from {fmt_time(start_ns)}, never ending"
    return f"from {fmt_time(start_ns)} to {fmt_time(end_ns)} ({fmt_duration(end_ns - start_ns)})"


def _whose(client: Optional[str], session: Optional[int], value: str) -> str:
    if client is None:
        return f"value {value} (no client sent it)"
    return f"{client}'s value {value}" + (f", session {session}" if session is not None else " (never granted)")


def belief_tip(b: Belief) -> str:
    head = f"{b.client} · session {b.session}" + (f" · fencing token {b.token}" if b.token >= 0 else "")
    lines = [head, f"believes it holds the lock {_span(b.start_ns, b.end_ns)}",
             f"ended: {BELIEF_STOP.get(b.end_reason, b.end_reason)}"]
    if b.renewals:
        lines.append(f"renewed ×{len(b.renewals)}: at " + ", ".join(fmt_time(t) for t in b.renewals))
    if b.expired_at_grant:
        lines.append("the lease was already over on its own clock when acquire returned (expired at grant)")
    return "\n".join(lines)


def window_tip(b: Belief, start_ns: int, end_ns: Optional[int], by: str) -> str:
    what = "promised validity window (the grant's promise)" if by == "grant" else "window added by extensions"
    return f"{b.client} · session {b.session}: {what}\n{_span(start_ns, end_ns)}\nas property P1 reads it"


def hold_tip(group: Sequence[Hold]) -> str:
    first, last = group[0], group[-1]
    if len(group) > 1:
        head = f"{first.node} · key {first.key}: {len(group)} failed attempts of {first.client} (no grant)"
    else:
        head = f"{first.node} · key {first.key} holds {_whose(first.client, first.session, first.value)}"
    reason = reasons_text(group)
    if len(group) == 1 and first.by is not None and first.client is not None and first.by != first.client:
        reason = f"deleted by {first.by} (another client's DEL)"
    went = f"went: {reason}" if reason is not None else "still held when the run ended"
    return "\n".join([head, _span(first.start_ns, last.end_ns), went])


def holder_tip(h: JudgedHolder) -> str:
    return (f"service holder: a quorum of the nodes holds {_whose(h.client, h.session, h.value)}\n"
            f"{_span(h.start, h.end)}")


def copy_tip(c: ReplicaCopy) -> str:
    lines = [f"{c.node} · key {c.key}: replica copy of {_whose(c.client, c.session, c.value)}",
             _span(c.start_ns, c.end_ns)]
    if c.via == "resync":
        lines.append("arrived with a full resynchronisation")
    elif c.lag_ns is not None:
        lines.append(f"arrived {fmt_duration(c.lag_ns)} after the master's copy began (replication lag)")
    lines.append(f"went: {c.reason}" if c.reason is not None else "still there when the run ended")
    return "\n".join(lines)


def op_tip(op: Op, app: Optional[App]) -> str:
    who = f"{op.client} {op.op} at {fmt_time(op.t)} · session {op.session}"
    who += f" · token {op.token}" if op.token >= 0 else " · no token"
    if not op.accepted:
        return f"{who}\nrejected: {op.reject}"
    note = app_note(app)
    if note.startswith("="):  # "= 1": say of what
        note = f"{app.app} {note}"
    return f"{who}\naccepted" + (f"; after it: {note}" if note else "")


def shade_tip(kind: str, s: Span) -> str:
    if kind == "pause":
        tail = {"ended by crash": " (ended by a crash)", "no resume recorded": " (no resume recorded)"}.get(s.note, "")
        return f"{s.what} paused {_span(s.start_ns, s.end_ns)}{tail}"
    return f"{s.what} down {_span(s.start_ns, s.end_ns)}" + (" (no restart)" if s.note else "")


def fault_tip(f: Fault) -> str:
    at = fmt_time(f.t)
    if f.fault == "crash":
        after = "never restarts" if f.down_for_ns < 0 else f"down for {fmt_duration(f.down_for_ns)}"
        return f"{f.target} crashes at {at} ({after})"
    if f.fault == "restart":
        return f"{f.target} restarts at {at}"
    if f.fault == "clock-jump":
        return f"{f.target}'s wall clock jumps {fmt_duration(f.by_ns, signed=True)} at {at}"
    if f.fault == "clock-drift":
        return f"{f.target}'s clock: {fmt_drift(f.ppm)} from {at}"
    return f"{f.fault} {f.target or ''} at {at}".replace("  ", " ")


def slew_tip(s: Span) -> str:
    return f"{s.what}'s clock: {fmt_drift(int(s.note), 'slew')} {_span(s.start_ns, s.end_ns)}"


def partition_tip(s: Span, sides: dict[str, str]) -> str:
    """s: the bar (one partition, or several that start and heal together); sides: for each of them that the trace
    gives the groups of, who was on which side ("partition 0" -> "{M, c1} | {R, s1}")."""
    lines = [f"{s.what} ({s.note}) {_span(s.start_ns, s.end_ns)}"]
    if len(sides) == 1 and s.what in sides:
        lines.append(f"sides: {sides[s.what]}")
    else:
        lines += [f"{what}: {text}" for what, text in sides.items()]
    return "\n".join(lines)


def burst_tip(kind: str, msgs: Sequence[Message]) -> str:
    """A burst of dropped or held messages: when, and from whom to whom — a line per sender, the busiest first, its
    receivers after it (so every pair is told, in as many lines as there are senders)."""
    pairs: dict[str, dict[str, int]] = {}
    for m in msgs:
        to = pairs.setdefault(m.sender, {})
        to[m.receiver] = to.get(m.receiver, 0) + 1
    head = f"{len(msgs)} message{'s' if len(msgs) != 1 else ''} {kind} " + (
        f"at {fmt_time(msgs[0].t)}" if len(msgs) == 1 else f"from {fmt_time(msgs[0].t)} to {fmt_time(msgs[-1].t)}")
    # Ties keep the order they first appeared in.
    senders = sorted(pairs.items(), key=lambda item: -sum(item[1].values()))
    lines = [f"{a} → " + ", ".join(f"{b} ×{n}" for b, n in sorted(to.items(), key=lambda pair: -pair[1]))
             for a, to in senders]
    return "\n".join([head, *lines])


def violation_tip(group: Sequence[PropertyVerdict]) -> str:
    parts = []
    for v in group:
        head = f"{v.id} {v.name} violated ({v.count}×), first witness at {fmt_time(v.witness_ns)}"
        parts.append(f"{head}\n{v.witness_text}" if v.witness_text else head)
    return "\n\n".join(parts)


def role_tip(ch: RoleChange, text: str) -> str:
    before = f" (was {ch.before})" if ch.before else ""
    return f"{ch.node} at {fmt_time(ch.t)}{before}: {text}"


def sentinel_tip(e: SentinelEvent) -> str:
    return f"{e.sentinel} at {fmt_time(e.t)}: {e.text}"


def call_tip(c: Call) -> str:
    lines = [f"{c.client} calls {c.service} at {fmt_time(c.called_ns)}"]
    lines.append(f"reaches it at {fmt_time(c.arrived_ns)}" if c.arrived_ns is not None else "never reaches it")
    if c.answered_ns is not None:
        waited = fmt_duration(c.answered_ns - c.called_ns)
        lines.append(f"answered at {fmt_time(c.answered_ns)}, {waited} after the call")
    else:
        lines.append("no answer within the run")
    return "\n".join(lines)


def attempt_tip(client: str, t_ns: int) -> str:
    return f"{client} starts an acquire attempt at {fmt_time(t_ns)}"
