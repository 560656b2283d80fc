"""A real repetition's records as a history (docs/history.md, locksim-history/1), for `locksim check`.

The referee's own judge (judge.py) reads the records; a history is the same
run in the format any recorder can write and locksim judges with its own
checkers, so that the two definitions of P1..P5 can be held against each
other on real runs. The conversion only moves what the records say into
the format's words; where the records cannot say something, the history
marks it unknown or leaves it out. What maps to what:

  time        `common`: every process stamped its records with one
              CLOCK_MONOTONIC (record.go), so `t` is that reading less the
              run's t0 (seconds from t0, as judge.py's witnesses count
              them) and `local` is the raw reading, the recorder's own.
  processes   the clients (kind client), the resource (if the story has
              one), the three members (kind store, from the driver's
              `cluster` record). The harness's observer and proxy are
              instruments, not parts of the system: their records bound
              facts, they are not facts of their own.
  a client    `want` and the acquire `invoke` when it asks for its lease
              (the lease, the session and Lock are one acquisition, as
              locksim counts it), `complete` when Lock returns; `grant`
              with the client's own deadline at that instant (facts.py:
              the keepalive start's DialTimeout + 1 s, or the latest reply
              + TTL, never moved back) as `lease_end_local` on its
              monotonic clock and as `promised_end`; an `extend` at each
              keepalive reply after the grant (a reply before it is already
              in the grant's promise; one with TTL <= 0 extends nothing);
              `release` and the release `invoke` at its Unlock call,
              `complete` when Unlock returns (an error: `info`, the delete
              may or may not have been applied); `belief-end` where
              facts.py ends the belief: released, session-lost (a check
              found Done closed), crashed (SIGKILL), abandoned (it exited
              without Unlock). A belief that lasts to the run's end has
              no `belief-end`: `end` ends it.
  resource    each decision as an `op` (its own order: `seq`), and after
              each accepted one its state as `app`; its `final` state as
              the quiescent `app`. No `final` record (the resource did not
              stop cleanly): the application's state at rest is not
              known, and `app` is `unknown`.
  faults      the driver's faults as the observer's `fault` lines and, for
              each, `fault-fired` under the scenario file's name for it.

  the keys    each change of the Mutex's owner (judge.StoreHistory: the
              lowest create revision under the prefix) as the old owner's
              `key-dropped` and the new one's `key-held`, numbered by the
              revision (`change`) and known only within [t, t_latest]: the
              bounds judge.py decides P4 with. When a commit is known only
              between two instants, writing one instant would be a guess;
              the range and the number say exactly what is known. If the
              observer's watch broke, or a revision's bounds are not
              consistent, `service.recorded` is false, no key events are
              written, the source says why, and `locksim check` says P4 is
              unknown where an op was accepted.

What the history does not contain, and why:

  role, store-session     the driver learns who leads by polling (so only
              the header's `masters`, from the cluster's start), and when
              the leader expired a lease only by its key's deletion.
"""
import json
import os

from . import facts as facts_mod
from . import judge as judge_mod
from . import scenario as scenario_mod

FORMAT = "locksim-history/1"
RELEASE = "etcd 3.4.23"

# The driver's fault kinds in the history's words, which are also the kinds
# the scenario file gives them (so the file's name for each is found by it).
FAULT_WORD = {"blackhole": "partition", "pause": "pause", "crash": "crash", "clock-step": "clock-jump"}

REJECTS = {"": "none", "stale-token": "stale-token"}
BELIEF_END = {"released": "released", "done-closed": "session-lost", "killed": "crashed", "exited": "abandoned"}


class NotConvertible(ValueError):
    """The records say something the history format has no honest words for."""


def history_path(record_path: str) -> str:
    """EXPERIMENT.VARIANT.repNN.jsonl -> EXPERIMENT.VARIANT.repNN.history.jsonl, beside it."""
    base = record_path[:-len(".jsonl")] if record_path.endswith(".jsonl") else record_path
    return base + ".history.jsonl"


def scenario_fault_names(records: list[dict], scenarios_dir: str) -> dict[str, str]:
    """{file kind: fault name, "name:NAME": NAME} of the run's scenario variant; {} when the file or variant is
    not there."""
    run = facts_mod._run_record(records)
    try:
        story = scenario_mod.load(os.path.join(scenarios_dir, run.get("scenario", "")), run.get("variant", "base"))
    except (OSError, KeyError, ValueError):
        return {}
    # {kind: name}, and every fault by its own name ("name:NAME"), for a file with several of a kind.
    return {f.get("kind"): name for name, f in story.faults.items()} | {"name:" + n: n for n in story.faults}


class _Events:
    """The history's events as (t_ns, order, line), `t` and `promised_end` still on the raw clock
    until shifted; sorted by t, ties in the order they were added."""

    def __init__(self):
        self.items: list[tuple] = []

    def add(self, t_ns: int, p: str, type_: str, **fields) -> None:
        line = {"t": t_ns, "p": p, "local": t_ns, "type": type_, **fields}
        self.items.append((t_ns, len(self.items), line))

    def sorted_lines(self, origin_ns: int) -> list[dict]:
        """The lines in order, common times counted from origin_ns."""
        lines = [line for _, _, line in sorted(self.items, key=lambda e: e[:2])]
        for line in lines:
            line["t"] -= origin_ns
            for key in ("promised_end", "t_latest"):
                if isinstance(line.get(key), int):
                    line[key] -= origin_ns
        return lines


def _client_events(ev: _Events, client: str, mine: list[dict], sessions: list) -> None:
    """One client's lock events; sessions are its facts.Session, one per grant (a lease never granted the
    lock has one too, ungranted). A cycle's acquire starts at its lease request or, under a lease it
    already has, at its Lock call."""
    by_name = {s.session: s for s in sessions}
    granted = {(s.lease, s.iteration): s for s in sessions if s.grant_ns is not None}
    op = 0
    acquire = release = None
    current = None    # the session of the cycle since its grant
    for r in mine:
        e = r["event"]
        new_cycle = current is None or current.iteration != r.get("iteration", 0)
        if e in ("lease-invoke", "lock-invoke") and acquire is None and (e == "lease-invoke" or new_cycle):
            ev.add(r["t_ns"], client, "want")
            op += 1
            acquire = op
            ev.add(r["t_ns"], client, "invoke", op=acquire, kind="acquire")
        elif e in ("lease-error", "session-error", "lock-error") and acquire is not None:
            # An error reply: the client does not hold the lock (Lock deletes its own key on an error).
            ev.add(r["t_ns"], client, "complete", op=acquire, kind="acquire", outcome="fail")
            acquire = None
        elif e == "grant" and by_name.get(r.get("session", r["lease"])) is not None:
            current = by_name[r.get("session", r["lease"])]
            if acquire is not None:
                ev.add(r["t_ns"], client, "complete", op=acquire, kind="acquire", outcome="ok")
                acquire = None
            ev.add(r["t_ns"], client, "grant", session=current.session, value=r.get("key", current.session),
                   token=_token(mine, current.iteration), validity_ns=0, **_promise(current, r["t_ns"]))
            grant = ev.items[-1][2]
            if grant["promised_end"] != "unknown":
                grant["validity_ns"] = grant["lease_end_local"] - r["t_ns"]
        elif e == "keepalive" and r.get("ttl_s", 0) > 0:
            # The lease's latest grant before the reply is the session it extends.
            s = max((s for s in sessions if s.lease == r.get("lease") and s.grant_ns is not None
                     and s.grant_ns < r["t_ns"]), key=lambda s: s.grant_ns, default=None)
            if s is not None:
                ev.add(r["t_ns"], client, "extend", session=s.session, **_promise(s, r["t_ns"]))
        elif e == "unlock-invoke" and (r.get("lease"), r.get("iteration", 0)) in granted:
            s = granted[(r.get("lease"), r.get("iteration", 0))]
            ev.add(r["t_ns"], client, "release", session=s.session)
            op += 1
            release = op
            ev.add(r["t_ns"], client, "invoke", op=release, kind="release")
        elif e == "unlock" and release is not None:
            ev.add(r["t_ns"], client, "complete", op=release, kind="release", outcome="ok" if r.get("ok") else "info")
            release = None
    for s in sessions:
        if s.grant_ns is not None and s.belief_end_reason in BELIEF_END:
            ev.add(s.belief_end_ns, client, "belief-end", session=s.session, reason=BELIEF_END[s.belief_end_reason])


def _token(mine: list[dict], iteration: int = 0) -> int:
    """The fencing token the client read after its grant (its key's create revision); -1: none."""
    rec = next((r for r in mine if r["event"] == "token" and r.get("iteration", 0) == iteration), None)
    if rec is None or not rec.get("key_present") or "create_revision" not in rec:
        return -1
    return rec["create_revision"]


def _promise(s, at_ns: int) -> dict:
    """The client's own deadline as set by at_ns (facts.Session.promise_end), on its clock and (once
    shifted) on the common one: the two are one clock."""
    end = s.promise_end(at_ns)
    if end is None:
        return {"clock": "monotonic", "promised_end": "unknown"}
    return {"clock": "monotonic", "lease_end_local": end, "promised_end": end}


def _resource_events(ev: _Events, records: list[dict], granted: dict, run: dict) -> bool:
    """The resource's ops and states; whether its state at rest (`final`) was recorded.

    granted: {session: its grant's t_ns}. An op of a session not granted by
    then (a waiter that wrote before its Lock returned) is an op of a client
    that does not hold the lock: the format's null session. A stock kept in
    etcd has no resource process: its ops are the clients' Txns and Gets,
    decided by the leader somewhere in [invoke, reply] and written here at
    the reply (the resource's `op`, as locksim's history writes the store's
    own decisions), its state after each from the Txn's own read."""
    app = run.get("app", "counter")
    ops = sorted(facts_mod.decisions(records), key=lambda r: (r["t_ns"], r.get("seq", 0)))
    if app == "stock":
        ev.add(run["t0_ns"], "resource", "app", **_app_state({"stock": run.get("initial_stock", 1)}, app, True))
    sales = 0
    for r in ops:
        reason = r.get("reason", "")
        if reason not in REJECTS:
            raise NotConvertible(f"resource op seq {r.get('seq')}: rejection {reason!r} has no word in {FORMAT}")
        session = r["session"] if granted.get(r["session"], r["t_ns"] + 1) <= r["t_ns"] else None
        client = r["client"] if r["proc"] == "resource" else r["proc"]
        ev.add(r["t_ns"], "resource", "op", session=session, client=client, op=r["op"],
               accepted=bool(r["accepted"]), reject=REJECTS[reason], token=r.get("token", -1))
        if r["accepted"]:
            state = r
            if r["event"] == "store-op":
                sales += r["op"] == "decrement"
                state = {"stock": r["value"], "increments": sales}
            ev.add(r["t_ns"], "resource", "app", **_app_state(state, app, quiescent=False))
    final = next((r for r in records if (r.get("proc") == "resource" and r.get("event") == "final")
                  or (r.get("proc") == "observer" and r.get("event") == "stock-final" and "stock" in r)), None)
    if final is not None:
        ev.add(final["t_ns"], "resource", "app", **_app_state({"increments": sales, **final}, app, quiescent=True))
    return final is not None


def _app_state(r: dict, app: str, quiescent: bool) -> dict:
    # The resource keeps one number: a counter's value, or a register's (its writes set it to 1
    # without reading, so only the counter's invariant, value = accepted writes, applies), or a stock.
    if app == "stock":
        return {"app": app, "counter": 0, "increments": r.get("increments", 0), "elements": 0, "size": 0,
                "stock": r["stock"], "quiescent": quiescent}
    return {"app": app, "counter": r["counter"], "increments": r["increments"], "elements": 0, "size": 0,
            "stock": 0, "quiescent": quiescent}


def _leader_at(records: list[dict], cluster: dict, members: list[str]):
    """(t_ns -> the member last known to lead by then, the leader at the start): the cluster's start (the
    driver's `cluster` record), then the driver's polls after a crash. Known only when polled, so the history
    has no `role` events, only these names."""
    first = cluster.get("leader") if cluster.get("leader") in members else None
    polls = sorted((r["t_ns"], r["leader"]) for r in records if r.get("proc") == "driver"
                   and r.get("event") == "leader" and r.get("leader") in members)

    def at(t_ns: int) -> str:
        return next((who for t, who in reversed(polls) if t <= t_ns), first or members[0])
    return at, first


def _key_events(ev: _Events, records: list[dict], prefix: str, leader_at) -> str | None:
    """The lock's owner changes, each known only within its revision's commit bounds (judge.StoreHistory);
    None when written, else why the history leaves the keys out.

    A revision that changes the Mutex's owner (the lowest create revision
    under the prefix) is one change: the old owner's key dropped and the new
    one's held together, numbered by the revision, within [lo, hi] — the
    bounds judge.py decides P4 with. Revisions that change no owner (a
    waiter's key put or gone) are not the lock's state and are left out.
    The store is one replicated state: each change is written as the
    member last known to lead then (_leader_at)."""
    store = judge_mod.StoreHistory(records, prefix)
    if not any(r.get("proc") == "observer" and r.get("event") == "ready" for r in records):
        return "no observer watched the lock's keys"
    if not store.complete:
        return "the observer's watch broke before the run ended"
    unlock_calls = {}
    for r in records:
        if r.get("event") == "unlock-invoke":
            unlock_calls.setdefault(r.get("lease"), []).append(r["t_ns"])
    changes, held_since = [], 0
    for k, rev in enumerate(store.events):
        before, after = store.holder_key_after[k], store.holder_key_after[k + 1]
        if before == after:
            continue
        lo, hi = store.lo[k], store.hi[k]
        if lo <= 0 or lo > hi:
            return f"revision {rev['revision']}'s commit is not bounded consistently on both sides"
        # Gone by its owner's Unlock if the owner called it while holding; else its lease ran out.
        unlocked = any(held_since <= t <= hi for t in unlock_calls.get(store.holder_after[k], []))
        changes.append((lo, hi, rev["revision"], before, after, "deleted" if unlocked else "expired"))
        held_since = lo
    for lo, hi, revision, before, after, reason in changes:
        ranged = {"t_latest": hi, "change": revision}
        if before is not None:
            ev.add(lo, leader_at(lo), "key-dropped", key=prefix, value=before, reason=reason, **ranged)
        if after is not None:
            ev.add(lo, leader_at(lo), "key-held", key=prefix, value=after, **ranged)
    return None


def _fault_events(ev: _Events, records: list[dict], names: dict[str, str]) -> None:
    driver = [r for r in records if r.get("proc") == "driver"]
    for r in driver:
        if r.get("event") == "fault" and r.get("kind") in FAULT_WORD:
            kind = r["kind"]
            sent = r.get("sent", True) is not False
            took = sent and r.get("took_effect", True) is not False
            at = r.get("fault_t_ns", r["t_ns"])
            if kind == "crash" and "fault_t_ns" not in r:
                # A client's crash is the SIGKILL the driver sent just before recording the fault.
                at = max((x["t_ns"] for x in driver if x.get("event") == "signal" and x.get("target") == r["target"]
                          and x.get("signal") == "SIGKILL" and x["t_ns"] <= r["t_ns"]), default=at)
            if sent:
                target = {} if kind == "blackhole" else {"target": r["target"]}
                ev.add(at, "observer", "fault", fault=FAULT_WORD[kind], **target)
            # The fault's own name when the driver gave it (a file may have several of one kind).
            name = names.get("name:" + str(r.get("name")), names.get(FAULT_WORD[kind]))
            if name is not None:
                ev.add(at, "observer", "fault-fired", fault=name, took_effect=took)
        elif r.get("event") == "signal" and r.get("signal") == "SIGCONT" and r.get("sent"):
            ev.add(r["t_ns"], "observer", "fault", fault="resume", target=r["target"])
        elif r.get("event") == "heal":
            ev.add(r["t_ns"], "observer", "fault", fault="heal")


def convert(records: list[dict], fault_names: dict[str, str] | None = None, source: str | None = None) -> list[dict]:
    """The history's lines (header first) for one repetition's records.

    fault_names: {the scenario file's fault kind: its name} (scenario_fault_names);
    without it the history names no faults and has no `fault-fired` lines."""
    run = facts_mod._run_record(records)
    names = dict(fault_names or {})
    f = facts_mod.from_real(records)
    clients = list(run["clients"])
    ev = _Events()
    for client in clients:
        _client_events(ev, client, [r for r in records if r.get("proc") == client], f.of(client))
    granted = {s.session: s.grant_ns for s in f.sessions.values() if s.grant_ns is not None}
    strangers = {r.get("client") for r in records if r.get("proc") == "resource" and r.get("event") == "op"} - set(clients)
    if strangers:
        raise NotConvertible(f"resource ops of {sorted(strangers)}, which the run's `run` record names as no client")
    has_resource = any(r.get("proc") == "resource" for r in records) or run.get("app", "none") != "none"
    at_rest = _resource_events(ev, records, granted, run) if has_resource else True
    _fault_events(ev, records, names)
    cluster = next((r for r in records if r.get("proc") == "driver" and r.get("event") == "cluster"), {})
    members = sorted(cluster.get("members", {}))
    leader_at, first_leader = _leader_at(records, cluster, members) if members else (None, None)
    keys_left_out = _key_events(ev, records, run.get("prefix", "lock"), leader_at) if members else "no members"

    # Seconds from t0, as judge.py counts; earlier only if something the history holds came earlier.
    origin_ns = min([run["t0_ns"]] + [t for t, _, _ in ev.items])
    lines = ev.sorted_lines(origin_ns)
    last = max([r["t_ns"] for r in records if r.get("proc") == "driver" and r.get("event") in ("end", "cap")]
               + [line["local"] for line in lines] + [origin_ns])
    lines.append({"t": last - origin_ns, "p": "observer", "local": last, "type": "end"})

    processes = [{"name": c, "kind": "client", "clock": "monotonic"} for c in clients]
    if has_resource:
        processes.append({"name": "resource", "kind": "resource", "clock": "monotonic"})
    processes += [{"name": m, "kind": "store", "clock": "monotonic"} for m in members]
    processes += [{"name": n, "kind": "service", "clock": "monotonic"} for n in run.get("services", [])]
    app = run.get("app", "none") if has_resource else "none"
    if has_resource and not at_rest:
        app = "unknown"
        lines = [line for line in lines if line["type"] != "app"]
    source = source or (f"tests/real_etcd: real {RELEASE}, {run.get('experiment')} {run.get('variant')} "
                        f"rep {run.get('rep')}")
    if keys_left_out is not None:
        source += f" (the lock's keys are not recorded: {keys_left_out})"
    header = {"format": FORMAT, "time": "common", "source": source,
              "processes": processes,
              # One key per session under the Mutex's prefix: the lock is the prefix.
              "service": {"nodes": members, "quorum": 1, "key": run.get("prefix", "lock"),
                          "replicated_state": True, "recorded": keys_left_out is None,
                          **({"masters": [None if m == first_leader else first_leader for m in members]}
                             if first_leader else {})},
              "app": app, "faults": list(dict.fromkeys(names.values()))}
    return [header] + lines


def write(path: str, lines: list[dict]) -> None:
    with open(path, "w") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")


def write_beside(record_path: str, scenarios_dir: str, records: list[dict] | None = None) -> str:
    """Writes the history of the records in record_path beside them; returns its path."""
    records = records if records is not None else facts_mod.read_jsonl(record_path)
    path = history_path(record_path)
    source = f"tests/real_etcd: real {RELEASE}, records {os.path.basename(record_path)}"
    write(path, convert(records, scenario_fault_names(records, scenarios_dir), source=source))
    return path
