"""Writing a locksim-history/1 file (docs/history.md) from the records of one
real repetition, and checking one against the format before `locksim check`
sees it. Pure functions of the records: tested on hand-made ones.

Every recorder (each client, the resource, each redis-server's MONITOR
reader, the driver as `observer`) gives records with `t` on the common
clock (CLOCK_MONOTONIC, made relative to the story's t0) and `local` on its
own clock. merge() sorts them by `t` — stable, so records of one recorder at
one instant keep the order it wrote them in — and puts the header first and
one `end` last.
"""
import json

FORMAT = "locksim-history/1"
KINDS = {"client", "redis", "resource", "sentinel", "store", "service", "other"}
CLOCKS = {"monotonic", "wall"}

# type -> the fields it must carry (beyond t, p, local, type)
FIELDS = {
    "want": (), "give-up": (),
    "invoke": ("op", "kind"),
    "complete": ("op", "kind", "outcome"),
    "grant": ("session", "value", "token", "validity_ns", "clock", "lease_end_local", "promised_end"),
    "extend": ("session", "clock", "lease_end_local", "promised_end"),
    "belief-end": ("session", "reason"),
    "release": ("session",),
    "op": ("session", "client", "op", "accepted", "reject", "token"),
    "app": ("app", "quiescent"),
    "key-held": ("key", "value"),
    "key-dropped": ("key", "value", "reason"),
    "role": ("master", "epoch"),
    "store-session": ("session", "client", "event", "ttl_ns"),
    "fault": ("fault",),
    "fault-fired": ("fault", "took_effect"),
    "end": (),
}
OUTCOMES = {"ok", "fail", "info"}
REQUEST_KINDS = {"acquire", "release", "extend", "fencing-token"}
BELIEF_REASONS = {"released", "validity-check", "crashed", "abandoned", "session-lost"}
DROP_REASONS = {"deleted", "expired", "overwritten", "lost-in-crash", "demoted"}
SESSION_USERS = {"extend", "belief-end", "release", "op"}


def header(*, source: str, processes: list[dict], nodes: list[str], key: str, recorded: bool,
           app: str, faults: list[str], masters: list | None = None) -> dict:
    """The header line; quorum is a majority of the masters (1 for one master and its replicas)."""
    masters = masters or [None] * len(nodes)
    return {"format": FORMAT, "time": "common", "source": source, "processes": processes,
            "service": {"nodes": nodes, "quorum": masters.count(None) // 2 + 1, "key": key,
                        "masters": masters, "recorded": recorded},
            "app": app, "faults": faults}


def merge(head: dict, records: list[dict], end_t: int, end_local: int) -> list[dict]:
    """Header, the records sorted by t (stable), and one `end` at end_t (no earlier than the last)."""
    body = sorted((r for r in records if r.get("type") != "end"), key=lambda r: r["t"])
    last = body[-1]["t"] if body else 0
    end = {"t": max(end_t, last), "p": "observer", "local": end_local, "type": "end"}
    return [head] + body + [end]


def dumps(lines: list[dict]) -> str:
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def validate(lines: list[dict]) -> list[str]:
    """What is wrong with a history as docs/history.md specifies it (empty: nothing found)."""
    errors: list[str] = []
    if not lines:
        return ["empty history"]
    head = lines[0]
    if head.get("format") != FORMAT:
        errors.append(f"line 1: format is {head.get('format')!r}")
    if head.get("time") != "common":
        errors.append("line 1: this referee writes common-time histories only")
    names = set()
    for proc in head.get("processes", []):
        if proc.get("name") in names or proc.get("name") == "observer":
            errors.append(f"line 1: process name {proc.get('name')!r} repeated or reserved")
        names.add(proc.get("name"))
        if proc.get("kind") not in KINDS or proc.get("clock") not in CLOCKS:
            errors.append(f"line 1: process {proc.get('name')!r} has kind {proc.get('kind')!r} clock {proc.get('clock')!r}")
    service = head.get("service", {})
    for node in service.get("nodes", []):
        if node not in names:
            errors.append(f"line 1: service node {node!r} is not a process")
    if not isinstance(service.get("quorum"), int) or not isinstance(service.get("recorded"), bool) \
            or not isinstance(service.get("key"), str):
        errors.append("line 1: service needs quorum (integer), key (string) and recorded (boolean)")
    if head.get("app") not in {"none", "counter", "register", "collection", "stock", "unknown"}:
        errors.append(f"line 1: app {head.get('app')!r}")
    fault_names = set(head.get("faults", []))
    granted = set()
    last_t = None
    ends = 0
    for number, line in enumerate(lines[1:], start=2):
        kind = line.get("type")
        where = f"line {number} ({kind})"
        if kind not in FIELDS:
            errors.append(f"{where}: unknown type")
            continue
        missing = [f for f in ("t", "p", "local") + FIELDS[kind] if f not in line]
        if missing:
            errors.append(f"{where}: missing {', '.join(missing)}")
            continue
        if not isinstance(line["t"], int) or not isinstance(line["local"], int):
            errors.append(f"{where}: t and local must be integers")
        elif last_t is not None and line["t"] < last_t:
            errors.append(f"{where}: t {line['t']} before the previous line's {last_t}")
        else:
            last_t = line["t"]
        if line["p"] != "observer" and line["p"] not in names:
            errors.append(f"{where}: process {line['p']!r} is not in the header")
        if kind == "end":
            ends += 1
            if number != len(lines):
                errors.append(f"{where}: end is not the last line")
        if kind in ("invoke", "complete") and line["kind"] not in REQUEST_KINDS:
            errors.append(f"{where}: request kind {line['kind']!r}")
        if kind == "complete" and line["outcome"] not in OUTCOMES:
            errors.append(f"{where}: outcome {line['outcome']!r}")
        if kind == "grant":
            if line["session"] in granted:
                errors.append(f"{where}: session {line['session']!r} granted twice")
            granted.add(line["session"])
            pe = line["promised_end"]
            if not (pe is None or pe == "unknown" or isinstance(pe, int)):
                errors.append(f"{where}: promised_end {pe!r}")
        if kind in SESSION_USERS and line["session"] not in granted:
            errors.append(f"{where}: session {line['session']!r} used before its grant")
        if kind == "belief-end" and line["reason"] not in BELIEF_REASONS:
            errors.append(f"{where}: reason {line['reason']!r}")
        if kind == "key-dropped" and line["reason"] not in DROP_REASONS:
            errors.append(f"{where}: reason {line['reason']!r}")
        if kind == "fault-fired" and line["fault"] not in fault_names:
            errors.append(f"{where}: fault {line['fault']!r} is not in the header's faults")
    if ends != 1:
        errors.append(f"{ends} end lines (exactly one, last)")
    return errors
