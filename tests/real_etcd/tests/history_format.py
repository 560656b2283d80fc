"""docs/history.md's rules, as a test reads them: a history's lines either pass or name the first rule they break.

Written from the page, not from locksim's reader, so that a history the
referee writes is held to the contract itself: the header's fields and
their types; per event its type, who may record it, the fields it must
have and the only ones it may; `t` in non-decreasing order (time is
common); every session named only after its grant and only by the client
it was granted to; each request completed at most once, after its invoke;
`end` exactly once, last.
"""

FORMAT = "locksim-history/1"
PROCESS_KINDS = {"client", "redis", "resource", "sentinel", "store", "service", "other"}
CLOCKS = {"monotonic", "wall"}
APPS = {"none", "counter", "register", "collection", "stock", "unknown"}
REQUESTS = {"acquire", "release", "extend", "fencing-token"}
OUTCOMES = {"ok", "fail", "info"}
BELIEF_ENDS = {"released", "validity-check", "crashed", "abandoned", "session-lost"}
KEY_GONE = {"deleted", "expired", "overwritten", "lost-in-crash", "demoted"}
FAULTS = {"pause", "resume", "crash", "restart", "clock-jump", "clock-drift", "clock-slew", "partition", "heal"}
STORE_SESSION = {"opened", "expired", "closed"}
PROMISE = ("clock", "lease_end_local", "promised_end")

# Per event: (who records it, required fields, optional fields)
EVENTS = {
    "want": ("client", (), ()),
    "give-up": ("client", (), ()),
    "invoke": ("client", ("op", "kind"), ()),
    "complete": ("client", ("op", "kind", "outcome"), ()),
    "grant": ("client", ("session", "value", "token", "validity_ns", "clock", "promised_end"), ("lease_end_local",)),
    "extend": ("client", ("session", "clock", "promised_end"), ("lease_end_local",)),
    "belief-end": ("client", ("session", "reason"), ()),
    "release": ("client", ("session",), ()),
    "op": ("resource", ("session", "client", "op", "accepted", "reject", "token"), ()),
    "app": ("resource", ("app", "counter", "increments", "elements", "size", "stock", "quiescent"), ()),
    "key-held": ("node", ("key", "value"), ("t_latest", "change")),
    "key-dropped": ("node", ("key", "value", "reason"), ("t_latest", "change")),
    "role": ("node", ("master", "epoch"), ()),
    "store-session": ("node", ("session", "client", "event", "ttl_ns"), ()),
    "fault": ("observer", ("fault",), ("target",)),
    "fault-fired": ("observer", ("fault", "took_effect"), ()),
    "end": ("observer", (), ()),
}


class Invalid(AssertionError):
    pass


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise Invalid(f"{where}: {what}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate(lines: list[dict]) -> None:
    """Raises Invalid naming the first line and rule a history breaks."""
    _need(len(lines) >= 2, "history", "a header and at least the end")
    header = lines[0]
    procs, nodes, fault_names, app_unknown = _header(header)
    last_t = None
    granted: dict = {}              # session -> client
    open_requests: dict = {}        # (client, op) -> kind
    for number, line in enumerate(lines[1:], start=2):
        where = f"line {number}"
        _need(isinstance(line, dict), where, "an event is a JSON object")
        type_ = line.get("type")
        _need(type_ in EVENTS, where, f"type {type_!r} is no event of {FORMAT}")
        recorder, required, optional = EVENTS[type_]
        allowed = {"t", "p", "local", "type", *required, *optional}
        _need(set(line) >= {"t", "p", "local", "type", *required}, where,
              f"{type_} lacks {sorted({'t', 'p', 'local', 'type', *required} - set(line))}")
        _need(set(line) <= allowed, where, f"{type_} has fields the format does not: {sorted(set(line) - allowed)}")
        _need(_is_int(line["t"]) and _is_int(line["local"]), where, "t and local are integers (ns)")
        _need(last_t is None or line["t"] >= last_t, where, f"t {line['t']} is before the previous line's {last_t}")
        last_t = line["t"]
        p = line["p"]
        kind = "observer" if p == "observer" else procs.get(p)
        _need(kind is not None, where, f"p {p!r} is no process of the header")
        if recorder == "node":
            _need(p in nodes, where, f"a {type_} is recorded by a node of service.nodes, not {p!r}")
        elif recorder == "observer":
            _need(p == "observer", where, f"a {type_} is recorded by the observer")
        else:
            _need(kind == recorder, where, f"a {type_} is recorded by a {recorder}, not {p!r} ({kind})")
        _fields(line, where, type_, procs, granted, open_requests, fault_names, app_unknown)
        if type_ == "end":
            _need(number == len(lines), where, "end is the last line")
    _need(lines[-1].get("type") == "end", f"line {len(lines)}", "the history ends with end")


def _header(h: dict):
    where = "line 1 (header)"
    _need(h.get("format") == FORMAT, where, f"format is {FORMAT}")
    _need(h.get("time") == "common", where, "time is common (a real repetition has one clock)")
    _need(set(h) <= {"format", "time", "source", "processes", "service", "app", "faults"}, where,
          f"unknown header fields {sorted(set(h) - {'format', 'time', 'source', 'processes', 'service', 'app', 'faults'})}")
    procs = {}
    for p in h.get("processes", []):
        _need(set(p) == {"name", "kind", "clock"}, where, f"process {p} has name, kind and clock only")
        _need(p["name"] != "observer" and p["name"] not in procs, where, f"process name {p['name']!r} reserved or twice")
        _need(p["kind"] in PROCESS_KINDS and p["clock"] in CLOCKS, where, f"process {p}: kind or clock")
        procs[p["name"]] = p["kind"]
    _need(bool(procs), where, "processes lists every process")
    s = h.get("service", {})
    _need(set(s) >= {"nodes", "quorum", "key", "recorded"}, where, "service has nodes, quorum, key, recorded")
    _need(set(s) <= {"nodes", "quorum", "key", "masters", "replicated_state", "recorded"}, where, "service fields")
    _need(all(n in procs for n in s["nodes"]), where, "service.nodes are processes of the header")
    _need(_is_int(s["quorum"]) and 1 <= s["quorum"] <= max(1, len(s["nodes"])), where, "quorum between 1 and nodes")
    _need(isinstance(s["key"], str) and isinstance(s["recorded"], bool), where, "key is a string, recorded a boolean")
    _need(h.get("app") in APPS, where, f"app {h.get('app')!r}")
    faults = h.get("faults", [])
    _need(isinstance(faults, list) and all(isinstance(f, str) for f in faults), where, "faults is a list of names")
    return procs, set(s["nodes"]), set(faults), h["app"] == "unknown"


def _session(line, where, granted, client) -> None:
    v = line["session"]
    _need(isinstance(v, (int, str)) and not isinstance(v, bool), where, "a session is an integer or a string")
    _need(v in granted, where, f"session {v!r} is used before its grant")
    _need(granted[v] == client, where, f"session {v!r} was granted to {granted[v]}, not {client}")


def _promise(line, where) -> None:
    _need(line["clock"] in CLOCKS, where, "clock is monotonic or wall")
    end = line["promised_end"]
    _need(end is None or end == "unknown" or _is_int(end), where, "promised_end is ns, null or \"unknown\"")
    _need("lease_end_local" not in line or _is_int(line["lease_end_local"]), where, "lease_end_local is ns")


def _fields(line, where, type_, procs, granted, open_requests, fault_names, app_unknown) -> None:
    p = line["p"]
    if type_ in ("invoke", "complete"):
        _need(_is_int(line["op"]) and line["kind"] in REQUESTS, where, "op is an integer, kind a request kind")
        key = (p, line["op"])
        if type_ == "invoke":
            _need(key not in open_requests, where, f"op {line['op']} invoked again before it completed")
            open_requests[key] = line["kind"]
        else:
            _need(open_requests.get(key) == line["kind"], where, f"op {line['op']} completes without its invoke")
            _need(line["outcome"] in OUTCOMES, where, "outcome is ok, fail or info")
            del open_requests[key]
    elif type_ == "grant":
        v = line["session"]
        _need(v not in granted, where, f"session {v!r} granted twice")
        _need(isinstance(line["value"], str) and _is_int(line["token"]) and _is_int(line["validity_ns"]), where,
              "value is a string, token and validity_ns integers")
        _promise(line, where)
        granted[v] = p
    elif type_ == "extend":
        _session(line, where, granted, p)
        _promise(line, where)
    elif type_ in ("belief-end", "release"):
        _session(line, where, granted, p)
        if type_ == "belief-end":
            _need(line["reason"] in BELIEF_ENDS, where, f"reason {line['reason']!r}")
    elif type_ == "op":
        _need(procs.get(line["client"]) == "client", where, f"op client {line['client']!r} is a client")
        if line["session"] is not None:
            _session(line, where, granted, line["client"])
        _need(isinstance(line["accepted"], bool) and isinstance(line["reject"], str) and _is_int(line["token"]),
              where, "accepted is a boolean, reject a word, token an integer")
    elif type_ == "app":
        _need(not app_unknown, where, "an app event, yet the header's app is unknown")
        _need(isinstance(line["quiescent"], bool), where, "quiescent is a boolean")
    elif type_ == "key-dropped":
        _need(line["reason"] in KEY_GONE, where, f"reason {line['reason']!r}")
    elif type_ == "store-session":
        _need(line["event"] in STORE_SESSION, where, f"event {line['event']!r}")
    elif type_ == "fault":
        _need(line["fault"] in FAULTS, where, f"fault {line['fault']!r}")
        _need(line["fault"] != "partition" or "target" not in line, where, "a partition has no target")
        _need("target" not in line or line["target"] in procs, where, f"target {line.get('target')!r}")
    elif type_ == "fault-fired":
        _need(line["fault"] in fault_names, where, f"fault {line['fault']!r} is not in the header's faults")
        _need(isinstance(line["took_effect"], bool), where, "took_effect is a boolean")
