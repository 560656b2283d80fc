"""The five safety properties, judged from a real run's records alone.

Pure functions of the records (no process, no clock): the same definitions
as docs/properties.md, on the records' common CLOCK_MONOTONIC timeline
instead of the simulator's true time. Each verdict is holds, violated or —
where the records cannot decide — unknown, with a count and the first
witness; none is ever guessed.

P1 grant-exclusive  Y's grant while X's promised window is open and X has
                    not released. X's window opens at its grant and ends at
                    its last renewal so far + TTL (clientv3's own deadline:
                    keepalive reply arrival + TTL); X has released once it
                    called Unlock. A grant exactly at the end or at the
                    release is allowed. Each such grant counts once.
P2 belief-exclusive two sessions' beliefs overlap for a positive time.
                    Belief: from the grant to the first of its Unlock call,
                    a check that found Done closed, its process killed or
                    exited, the run's end (facts.py). A pause ends nothing.
P3 resource-exclusive  in the resource's order of accepted ops, an op of X
                    right after another session's op when X had one before
                    (X, Y, X). Each resumption counts once. A stock kept in
                    etcd: the leader's order, sure by revision, but reads at
                    one revision whose calls overlap may have been served
                    either way round — such a case is unknown.
P4 resource-current an op accepted while its session is not the service's
                    holder: the lease owning the key with the lowest create
                    revision under the prefix, in the store's state at that
                    instant. The state is known from the observer's watch
                    (every PUT/DELETE by revision); when each revision was
                    committed is bounded by the revision ladder (a ladder
                    put below R was sent before R committed, one above R
                    replied after) and by the client that caused it (a key is
                    put after its owner called Lock and before Lock returned;
                    deleted before a successful Unlock returned, and — when
                    the observer found the lease alive afterwards, so it was
                    no revocation — after the Unlock was called). If the states the bounds
                    allow at the op's instant disagree on the holder, that op
                    is unknown. Rejected ops never count.
P5 invariant        the counter differs from the number of accepted writes
                    (the resource's final state); a stock went below 0 (any
                    state, as locksim check reads it). No application: holds.
"""
from dataclasses import dataclass, field

from . import facts as facts_mod

PROPERTIES = [("P1", "grant-exclusive"), ("P2", "belief-exclusive"), ("P3", "resource-exclusive"),
              ("P4", "resource-current"), ("P5", "invariant")]


@dataclass
class Verdict:
    status: str = "holds"          # holds | violated | unknown
    count: int = 0                 # violations
    unknown: int = 0               # cases the records cannot decide
    witness: str | None = None
    witness_t_ns: int | None = None
    notes: list = field(default_factory=list)

    def violate(self, t_ns: int, text: str) -> None:
        self.count += 1
        if self.witness is None or t_ns < self.witness_t_ns:
            self.witness, self.witness_t_ns = text, t_ns

    def settle(self) -> "Verdict":
        self.status = "violated" if self.count else ("unknown" if self.unknown else "holds")
        return self

    def as_dict(self) -> dict:
        return {"status": self.status, "count": self.count, "unknown": self.unknown, "witness": self.witness,
                "witness_t_ns": self.witness_t_ns, "notes": self.notes}


def _s(t_ns: int, t0_ns: int) -> str:
    return f"{(t_ns - t0_ns) / 1e9:.3f}s"


def grant_exclusive(f: facts_mod.Facts) -> Verdict:
    v = Verdict()
    granted = sorted((s for s in f.sessions.values() if s.grant_ns is not None), key=lambda s: s.grant_ns)
    for y in granted:
        for x in granted:
            if x is y or x.grant_ns >= y.grant_ns:
                continue
            if x.release_ns is not None and x.release_ns <= y.grant_ns:
                continue
            end = x.promise_end(y.grant_ns)
            if end is not None and end > y.grant_ns:
                last = x.last_renewal(y.grant_ns)
                since = f"last keepalive reply {_s(last, f.t0_ns)}" if last is not None else "no keepalive reply yet"
                v.violate(y.grant_ns, f"{y.client} granted at {_s(y.grant_ns, f.t0_ns)} while {x.client}'s promised "
                                      f"window ran to {_s(end, f.t0_ns)} ({since}) and it had not released")
                break
    return v.settle()


def belief_exclusive(f: facts_mod.Facts) -> Verdict:
    v = Verdict()
    granted = sorted((s for s in f.sessions.values() if s.grant_ns is not None), key=lambda s: s.grant_ns)
    for i, a in enumerate(granted):
        for b in granted[i + 1:]:
            start, end = max(a.grant_ns, b.grant_ns), min(a.belief_end_ns, b.belief_end_ns)
            if start < end:
                v.violate(start, f"{b.client} began believing at {_s(b.grant_ns, f.t0_ns)} while {a.client} "
                                 f"believed from {_s(a.grant_ns, f.t0_ns)} until {_s(a.belief_end_ns, f.t0_ns)} "
                                 f"({a.belief_end_reason}): {(end - start) / 1e6:.0f} ms together")
    return v.settle()


def _accepted_ops(records):
    """The accepted ops in the resource's order: its `seq`; for a stock kept in etcd, the leader's, by
    revision (a sale at R came before a read that saw R; reads at one revision by their reply)."""
    ops = [r for r in facts_mod.decisions(records) if r.get("accepted")]
    if any(r.get("event") == "store-op" for r in ops):
        return sorted(ops, key=lambda r: (r["revision"], r["op"] == "read", r["t_ns"]))
    return sorted(ops, key=lambda r: r.get("seq", 0))


def _before(a: dict, b: dict) -> bool:
    """Whether the leader surely decided store op a before b: by revision (a sale makes its revision, a
    read sees the latest), and two reads at one revision only if a's reply came before b's call."""
    if a["revision"] != b["revision"]:
        return a["revision"] < b["revision"]
    if a["op"] != "read" or b["op"] != "read":
        return a["op"] != "read"
    return a["t_ns"] < b["invoke_ns"]


def _store_resumptions(ops, f, v: Verdict) -> Verdict:
    """P3 for a stock kept in etcd: X, Y, X where the leader's order of the three is sure (violated), or
    only possible (unknown: concurrent reads at one revision may have been served either way round)."""
    for i, x2 in enumerate(ops):
        for x1 in ops[:i]:
            if x1["session"] != x2["session"]:
                continue
            between = [y for y in ops if y["session"] != x1["session"] and not _before(y, x1)
                       and not _before(x2, y)]
            sure = [y for y in between if _before(x1, y) and _before(y, x2)]
            if sure:
                y = sure[0]
                v.violate(x2["t_ns"], f"{x2['client']} {x2['op']} accepted at {_s(x2['t_ns'], f.t0_ns)} resumed its "
                                      f"session after {y['client']}'s {y['op']} at {_s(y['t_ns'], f.t0_ns)}")
                break
            if between:
                v.unknown += 1
                v.notes.append(f"{x2['client']}'s {x2['op']} at {_s(x2['t_ns'], f.t0_ns)}: another session's op "
                               "may have come between it and its session's earlier op (concurrent reads)")
                break
    return v.settle()


def resource_exclusive(records, f: facts_mod.Facts) -> Verdict:
    v = Verdict()
    ops = _accepted_ops(records)
    if any(op.get("event") == "store-op" for op in ops):
        return _store_resumptions(ops, f, v)
    seen, previous = set(), None
    for op in ops:
        s = op["session"]
        if previous is not None and s != previous["session"] and s in seen:
            v.violate(op["t_ns"], f"{op['client']} {op['op']} accepted at {_s(op['t_ns'], f.t0_ns)} resumed its "
                                  f"session after {previous['client']}'s {previous['op']} at "
                                  f"{_s(previous['t_ns'], f.t0_ns)}")
        seen.add(s)
        previous = op
    return v.settle()


def _client_bounds(records, prefix: str) -> dict:
    """{(key, create revision or None): {"lock-invoke": first t, "grant": first t, "unlock": first ok t,
    "unlock-invoke": [t...]}} from the clients' records, a cycle's key named by its token's create revision."""
    created = {(r.get("proc"), r.get("iteration", 0)): r["create_revision"] for r in records
               if r.get("event") == "token" and r.get("create_revision") is not None}
    out = {}
    for r in records:
        e = r.get("event")
        if e not in ("lock-invoke", "grant", "unlock", "unlock-invoke") or "lease" not in r \
                or r.get("proc") in ("observer", "driver", "resource"):
            continue
        if e == "unlock" and not r.get("ok"):
            continue
        b = out.setdefault((f"{prefix}/{r['lease']}", created.get((r["proc"], r.get("iteration", 0)))), {})
        if e == "unlock-invoke":
            b.setdefault(e, []).append(r["t_ns"])
        else:
            b.setdefault(e, r["t_ns"])
    return out


class StoreHistory:
    """The lock prefix's history by revision, with bounds on when each revision committed."""

    def __init__(self, records, prefix: str):
        events = {}
        for r in records:
            if r.get("proc") == "observer" and r.get("event") in ("put", "delete"):
                events.setdefault(r["revision"], r)
        self.events = [events[k] for k in sorted(events)]
        self.complete = not any(r.get("proc") == "observer" and r.get("event") in ("watch-error", "watch-closed")
                                and r["t_ns"] < self._end(records) for r in records)
        ladder = sorted((r["revision"], r["sent_ns"], r["t_ns"]) for r in records
                        if r.get("proc") == "observer" and r.get("event") == "ladder")
        # What the clients' own records add. Only a key's owner puts it (its
        # Lock, after `lock-invoke`), and the key is in place when that Lock
        # returns (`grant`). A successful Unlock returns after its key is
        # gone. A deletion whose lease the observer found still alive
        # afterwards was no revocation: the owner's Unlock made it, after its
        # `unlock-invoke`.
        # A key locked again under one lease (a client's later cycle) is told apart by its create
        # revision, which the client read after its grant (`token`).
        bounds = _client_bounds(records, prefix)
        not_revoked = {r["delete_revision"] for r in records if r.get("proc") == "observer"
                       and r.get("event") == "lease-status" and r.get("alive")}
        n = len(self.events)
        self.lo = [0] * n
        self.hi = [ev["t_ns"] for ev in self.events]
        for i, ev in enumerate(self.events):
            key = ev["key"]
            b = bounds.get((key, ev.get("create_revision"))) or bounds.get((key, None)) or {}
            if ev["event"] == "put":
                self.lo[i] = b.get("lock-invoke", 0)
                self.hi[i] = min(self.hi[i], b.get("grant", self.hi[i]))
            else:
                self.hi[i] = min(self.hi[i], b.get("unlock", self.hi[i]))
                if ev["revision"] in not_revoked:
                    calls = [t for t in b.get("unlock-invoke", []) if t <= self.hi[i]]
                    if calls:
                        self.lo[i] = max(calls)
            below = [sent for rev, sent, _ in ladder if rev < ev["revision"]]
            above = [replied for rev, _, replied in ladder if rev > ev["revision"]]
            if below:
                self.lo[i] = max(self.lo[i], max(below))
            if above:
                self.hi[i] = min(self.hi[i], min(above))
        # Revisions commit in order: lower bounds rise, upper bounds fall.
        for i in range(1, n):
            self.lo[i] = max(self.lo[i], self.lo[i - 1])
        for i in range(n - 2, -1, -1):
            self.hi[i] = min(self.hi[i], self.hi[i + 1])
        self.revisions = [ev["revision"] for ev in self.events]
        # holder_after[k]: the lease holding the lock once the first k events
        # committed (the lowest create revision: the Mutex's owner), and its key.
        present = {}
        self.holder_after, self.holder_key_after = [None], [None]
        for ev in self.events:
            if ev["event"] == "put":
                present.setdefault(ev["key"], (ev["create_revision"], ev["lease"]))
            else:
                present.pop(ev["key"], None)
            owner = min(present, key=present.get) if present else None
            self.holder_after.append(present[owner][1] if owner else None)
            self.holder_key_after.append(owner)

    def holder_at_revision(self, revision: int):
        """The lease holding the lock in the store's state at a revision (the events up to it applied)."""
        return self.holder_after[sum(1 for r in self.revisions if r <= revision)]

    @staticmethod
    def _end(records):
        return max((r["t_ns"] for r in records if r.get("proc") == "driver" and r.get("event") == "end"),
                   default=float("inf"))

    def holders_at(self, t_ns: int) -> set | None:
        """Every holder some state allowed by the bounds has at t_ns; None if the bounds contradict each other."""
        k_min = sum(1 for h in self.hi if h <= t_ns)
        k_max = sum(1 for lo in self.lo if lo <= t_ns)
        if k_min > k_max:
            return None
        return set(self.holder_after[k_min:k_max + 1])


def resource_current(records, f: facts_mod.Facts, prefix: str) -> Verdict:
    v = Verdict()
    ops = _accepted_ops(records)
    if not ops:
        return v.settle()
    history = StoreHistory(records, prefix)
    if not history.complete:
        v.notes.append("the observer's watch broke before the run ended: its history may miss events")
    lease_of = {s.session: s.lease for s in f.sessions.values()}
    for op in ops:
        # A stock op in etcd was decided at its revision: the holder then is known exactly.
        holders = ({history.holder_at_revision(op["revision"])} if op.get("event") == "store-op"
                   else history.holders_at(op["t_ns"]))
        if holders is None:
            v.unknown += 1
            if not any("contradict" in n for n in v.notes):
                v.notes.append("the commit bounds contradict each other (a clock or record problem)")
            continue
        if lease_of.get(op["session"], op["session"]) not in holders:
            who = ", ".join(sorted(h or "nobody" for h in holders))
            v.violate(op["t_ns"], f"{op['client']} (session {op['session']}) {op['op']} accepted at "
                                  f"{_s(op['t_ns'], f.t0_ns)} while the holder was {who}")
        elif len(holders) > 1 or not history.complete:
            v.unknown += 1
    return v.settle()


def stock_invariant(records) -> Verdict:
    """P5 for a stock: it never went below 0 (as locksim check reads every state of a stock)."""
    v = Verdict()
    states = facts_mod.stock_states(records)
    if not any(s["final"] for s in states):
        v.unknown += 1
        v.notes.append("the stock's state at rest was not recorded")
    for s in states:
        if s["stock"] < 0:
            v.violate(s["t_ns"], f"stock is {s['stock']} after {s['sales']} sale(s): oversold by {-s['stock']}")
            break
    return v.settle()


def invariant(records, app: str) -> Verdict:
    v = Verdict()
    if app == "stock":
        return stock_invariant(records)
    if app != "counter":
        v.notes.append(f"app {app!r}: no invariant")
        return v.settle()
    states = [r for r in records if r.get("proc") == "resource" and r.get("event") in ("final", "op")]
    if not states:
        v.notes.append("no resource state recorded")
        return v.settle()
    final = next((r for r in reversed(states) if r["event"] == "final"), states[-1])
    if final["counter"] != final["increments"]:
        lost = final["increments"] - final["counter"]
        last = max((r for r in states if r["event"] == "op" and r.get("accepted") and r["op"] == "write"),
                   key=lambda r: r["t_ns"], default=final)
        v.violate(last["t_ns"], f"counter is {final['counter']} after {final['increments']} accepted writes: "
                                f"{lost} update(s) lost" if lost > 0 else
                                f"counter is {final['counter']} after {final['increments']} accepted writes")
    return v.settle()


def judge(records: list[dict]) -> dict:
    """{property name: Verdict} for one real run's records."""
    run = facts_mod._run_record(records)
    f = facts_mod.from_real(records)
    return {
        "grant-exclusive": grant_exclusive(f),
        "belief-exclusive": belief_exclusive(f),
        "resource-exclusive": resource_exclusive(records, f),
        "resource-current": resource_current(records, f, run["prefix"]),
        "invariant": invariant(records, run["app"]),
    }


def faults_fired(records: list[dict]) -> list[str]:
    """The kinds of the faults the driver made and saw take effect (a partition's heal: `heal`)."""
    return [r["kind"] for r in records if r.get("proc") == "driver" and r.get("event") == "fault"
            and r.get("sent", True) is not False and r.get("took_effect", True) is not False] + \
        ["heal" for r in records if r.get("proc") == "driver" and r.get("event") == "heal" and r.get("proxy") == "ok"]
