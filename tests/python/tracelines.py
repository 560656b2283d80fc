"""Writing small traces by hand in the simulator's line format (sim/world/trace_format.h), for tests.

Message lines carry their payload fields; the judged lines (``judged(...)``) are written out as a test states
them — nothing here computes a belief, a window or a holder: a test that needs the checkers' view of a story
spells it out, as the simulator would have written it.
"""

from __future__ import annotations

import json
from typing import Optional

S = 1_000_000_000
MS = 1_000_000

ONE_NODE = [("c1", "client"), ("c2", "client"), ("r1", "redis"), ("db", "resource")]
REPLICATED = [("M", "redis"), ("R", "redis"), ("c1", "client"), ("c2", "client"), ("s1", "sentinel")]

PROPERTIES = [("grant-exclusive", "P1"), ("belief-exclusive", "P2"), ("resource-exclusive", "P3"),
              ("resource-current", "P4"), ("invariant", "P5")]


def header(processes, nodes, quorum=1, app="none", masters=None) -> str:
    """masters: per node, the master it replicates at the start (None for a master); default all masters."""
    return json.dumps({"t": 0, "type": "run", "format": 2, "seed": "1",
                       "processes": [{"name": n, "kind": k} for n, k in processes],
                       "keys": ["lock"], "service_nodes": nodes,
                       "service_masters": masters if masters is not None else [None] * len(nodes),
                       "quorum": quorum, "app": app})


def line(t: int, type_: str, **fields) -> str:
    return json.dumps({"t": t, "type": type_, **fields})


def grant(t, session, client, value, token=-1):
    return line(t, "grant", session=session, client=client, value=value, token=token, validity_ns=10 * S,
                clock="monotonic")


def message(t, type_, frm, to, msg, kind, **fields) -> str:
    """A message line: "msg" for people, then the payload's fields after its "kind"."""
    return json.dumps({"t": t, "type": type_, "from": frm, "to": to, "msg": msg, "kind": kind, **fields})


def set_request(t, frm, to, value, nx=True, type_="send", request_id=1) -> str:
    return message(t, type_, frm, to, f"SET lock {value}{' NX' if nx else ''} PX 10000", "redis-request",
                   request_id=request_id, cmd="SET", key="lock", value=value, nx=nx, xx=False, px_ms=10000)


def belief(session, client, value, start, end, stop="released", token=-1, promised_end=None, released=None,
           extensions=0) -> dict:
    return dict(type="belief", session=session, client=client, value=value, token=token, start=start, end=end,
                stop=stop, promised_end=promised_end, released=released, extensions=extensions)


def window(session, client, start, end, by="grant", promised_end=None, until="lapsed", extended_at=None) -> dict:
    fields = dict(type="promised-window", session=session, client=client, start=start, end=end, by=by)
    if extended_at is not None:
        fields["extended_at"] = extended_at
    return dict(fields, promised_end=promised_end, until=until)


def holder(start, end, value, session=None, client=None) -> dict:
    return dict(type="holder", start=start, end=end, value=value, session=session, client=client)


def role(node, role_, start, end, epoch=0, master=None, changed=False) -> dict:
    fields = dict(type="role-interval", node=node, role=role_)
    if master is not None:
        fields["master"] = master
    return dict(fields, epoch=epoch, start=start, end=end, changed=changed)


def verdict(prop: str, status="holds", count=0, witness: Optional[dict] = None) -> dict:
    ids = dict(PROPERTIES)
    return dict(type="verdict", property=prop, id=ids[prop], status=status, count=count, witness=witness)


def judged(end: int, beliefs=(), windows=(), holders=(), roles=(), verdicts=None) -> list[str]:
    """The judged lines at the run's end, as stated; verdicts default to all five holding."""
    if verdicts is None:
        verdicts = [verdict(p) for p, _ in PROPERTIES]
    head = dict(type="judged", sessions=len(beliefs), promised_windows=len(windows), holders=len(holders),
                role_intervals=len(roles), verdicts=len(verdicts))
    return [json.dumps({"t": end, **fields}) for fields in [head, *beliefs, *windows, *holders, *roles, *verdicts]]


def masters(nodes, end) -> list[dict]:
    """Role intervals of nodes that are masters all run long (an unreplicated service)."""
    return [role(n, "master", 0, end) for n in nodes]
