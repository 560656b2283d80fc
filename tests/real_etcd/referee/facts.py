"""What a run did to each lock session, from real records or from a locksim trace.

Both sides are reduced to the same facts, so that one set of magnitude
functions (magnitudes.py) measures a real repetition and a simulated seed
alike. A session is one grant (docs/history.md: a `session` per grant): a
client that locks three times under one etcd lease has three. Per session:

  want_ns         the client asked for the lock (real: the cycle's lease
                  request, or its Lock call when the session's lease was
                  already there; sim: its acquire's `invoke`)
  grant_ns        the client learned it holds the lock (Lock returned nil;
                  locksim's `grant`)
  deadlines       (instant, deadline) each time the client's own deadline
                  was set: when its keepalive started (clientv3 gives a new
                  entry now + DialTimeout + 1 s until the first reply) and at
                  each keepalive reply (its arrival + the reply's TTL) (real:
                  its lease's, shared by the lease's grants);
                  locksim's `promise` records, (at, promised_end) (sim)
  replies         instants of its keepalive replies (real: `keepalive`;
                  sim: the `promise` records that come from an extension)
  belief_end_ns   the end of its belief: the first of its Unlock call, a
                  `check` that found Done closed, its process killed or
                  exited, the run's end (real); locksim's `belief-end`
  release_ns      it called Unlock (real) / locksim's `release`
  key_deleted_ns  its lock key's deletion as the observer's watch delivered
                  it (real) / the leader dropped the key or expired the
                  session (sim: `key-dropped`, else `store-session` expired)
  done_ns         session.Done() closed (real only)
  writes          instants of its accepted writes (and sales) at the resource

A client's promised window, at an instant, ends at the latest deadline set
by then (clientv3/lease.go: KeepAlive and recvKeepAlive set it; an
extension never moves the end backwards, as docs/properties.md says).
Records written before sessions had their own names (one grant per client,
no `iteration`, no `session` field) read as before: the session is the lease.
"""
import json
from dataclasses import dataclass, field


@dataclass
class Session:
    client: str
    session: str
    ttl_ns: int
    grant_ns: int | None = None
    deadlines: list = field(default_factory=list)  # (t_ns, deadline_ns), sorted
    replies: list = field(default_factory=list)    # keepalive reply instants, sorted
    belief_end_ns: int | None = None
    belief_end_reason: str | None = None
    release_ns: int | None = None
    key_deleted_ns: int | None = None
    done_ns: int | None = None
    writes: list = field(default_factory=list)
    value: str | None = None     # sim: the lock value its grant carried
    want_ns: int | None = None
    lease: str | None = None     # real: the etcd lease it was granted under
    iteration: int = 0           # real: the client's cycle

    def last_renewal(self, until_ns: int | None = None) -> int | None:
        """The last keepalive reply at or before until_ns (any, if None)."""
        times = [t for t in self.replies if until_ns is None or t <= until_ns]
        return max(times) if times else None

    def promise_end(self, at_ns: int) -> int | None:
        """When the client's own deadline, as set by at_ns, runs out."""
        ends = [end for t, end in self.deadlines if t <= at_ns]
        return max(ends) if ends else None


@dataclass
class Facts:
    t0_ns: int
    sessions: dict      # session name -> Session, in grant order (ungranted ones last)
    leader_crash_ns: int | None = None   # a store member that led was crashed
    elected_ns: int | None = None        # another member leads, the first time it is known
    final_stock: int | None = None       # a stock's state at rest
    stale_rejections: int = 0            # ops the resource (or etcd's Txn) refused as stale-token

    def of(self, client: str) -> list:
        return [s for s in self.sessions.values() if s.client == client]

    def get(self, client: str) -> Session | None:
        """The client's first session (the stories with roles have one per client)."""
        mine = self.of(client)
        return mine[0] if mine else None


def _run_record(records):
    for r in records:
        if r.get("proc") == "driver" and r.get("event") == "run":
            return r
    raise ValueError("no driver `run` record: not a real-run record file")


def decisions(records: list[dict]) -> list[dict]:
    """The resource's decisions on ops: the resource's `op` records, or — when the stock lives in etcd —
    the clients' `store-op` records (each decided by the leader within [invoke_ns, t_ns]; recorded at t_ns)."""
    return [r if r.get("proc") == "resource" else {"client": r.get("proc"), **r} for r in records
            if (r.get("proc") == "resource" and r.get("event") == "op")
            or (r.get("event") == "store-op" and "accepted" in r)]


def stock_states(records) -> list[dict]:
    """The stock's states in order, each {"t_ns", "stock", "sales", "final"}: the resource's after each
    accepted op and at rest, or — kept in etcd — after each accepted sale and as the observer read it last."""
    out, sales = [], 0
    for r in records:
        if r.get("proc") == "resource" and r.get("event") in ("op", "final") and "stock" in r \
                and (r["event"] == "final" or r.get("accepted")):
            out.append({"t_ns": r["t_ns"], "stock": r["stock"], "sales": r["increments"],
                        "final": r["event"] == "final"})
        elif r.get("event") == "store-op" and r.get("accepted") and r.get("op") == "decrement":
            sales += 1
            out.append({"t_ns": r["t_ns"], "stock": r["value"], "sales": sales, "final": False})
        elif r.get("proc") == "observer" and r.get("event") == "stock-final" and "stock" in r:
            out.append({"t_ns": r["t_ns"], "stock": r["stock"], "sales": sales, "final": True})
    return out


def _it(r: dict) -> int:
    return r.get("iteration", 0)


def _lease_timing(mine: list[dict]) -> dict:
    """lease -> (ttl_ns, deadlines, replies, done_ns) from one client's records."""
    out = {}
    for lease in [r for r in mine if r["event"] == "lease"]:
        hexid = lease["lease"]
        of = [r for r in mine if r.get("lease") == hexid]
        replies = [r for r in of if r["event"] == "keepalive" and r.get("ttl_s", 0) > 0]
        deadlines = sorted([(r["t_ns"], r["deadline_ns"]) for r in of if r["event"] == "keepalive-start"]
                           + [(r["t_ns"], r["t_ns"] + r["ttl_s"] * 1_000_000_000) for r in replies])
        done = next((r["t_ns"] for r in of if r["event"] == "done"), None)
        out[hexid] = (lease["ttl_s"] * 1_000_000_000, deadlines, sorted(r["t_ns"] for r in replies), done)
    return out


def _belief_end(client, s, mine, records, end_ns):
    ends = []
    if s.release_ns is not None:
        ends.append((s.release_ns, "released"))
    ends += [(r["t_ns"], "done-closed") for r in mine if r["event"] == "belief-end" and _it(r) == s.iteration]
    ends += [(r["t_ns"], "killed") for r in records if r.get("proc") == "driver"
             and r.get("event") == "signal" and r.get("target") == client and r.get("signal") == "SIGKILL"
             and r.get("sent")]
    ends += [(r["t_ns"], "exited") for r in records if r.get("proc") == "driver"
             and r.get("event") == "proc-exit" and r.get("target") == client]
    ends.append((end_ns, "run-end"))
    return min(e for e in ends if e[0] >= s.grant_ns)


def _client_sessions(client, mine, records, prefix, end_ns) -> list:
    leases = _lease_timing(mine)
    out = []
    for g in [r for r in mine if r["event"] == "grant"]:
        it, lease = _it(g), g["lease"]
        ttl, deadlines, replies, done = leases[lease]
        s = Session(client=client, session=g.get("session", lease), ttl_ns=ttl, grant_ns=g["t_ns"],
                    deadlines=deadlines, replies=replies, done_ns=done, lease=lease, iteration=it)
        s.want_ns = min((r["t_ns"] for r in mine if r["event"] in ("lease-invoke", "lock-invoke") and _it(r) == it),
                        default=None)
        s.release_ns = next((r["t_ns"] for r in mine if r["event"] == "unlock-invoke" and _it(r) == it), None)
        token = next((r.get("create_revision") for r in mine if r["event"] == "token" and _it(r) == it), None)
        key = f"{prefix}/{lease}"
        deletes = [r for r in records if r.get("proc") == "observer" and r.get("event") == "delete"
                   and r.get("key") == key and (s.want_ns is None or r["t_ns"] >= s.want_ns or it == 0)]
        mine_deleted = [r for r in deletes if token is not None and r.get("create_revision") == token] or deletes
        s.key_deleted_ns = mine_deleted[0]["t_ns"] if mine_deleted else None
        s.writes = sorted(r["t_ns"] for r in decisions(records) if r.get("accepted")
                          and r.get("op") in ("write", "decrement") and r.get("session") == s.session)
        s.belief_end_ns, s.belief_end_reason = _belief_end(client, s, mine, records, end_ns)
        out.append(s)
    for lease, (ttl, deadlines, replies, done) in leases.items():
        if not any(s.lease == lease for s in out):   # a lease never granted the lock (a waiter)
            out.append(Session(client=client, session=lease, ttl_ns=ttl, deadlines=deadlines, replies=replies,
                               done_ns=done, lease=lease))
    return out


def from_real(records: list[dict]) -> Facts:
    run = _run_record(records)
    end_ns = max((r["t_ns"] for r in records if r.get("proc") == "driver" and r.get("event") in ("end", "cap")),
                 default=max(r["t_ns"] for r in records))
    found = []
    for client in run["clients"]:
        mine = [r for r in records if r.get("proc") == client]
        found += _client_sessions(client, mine, records, run["prefix"], end_ns)
    found.sort(key=lambda s: (s.grant_ns is None, s.grant_ns or 0))
    f = Facts(t0_ns=run["t0_ns"], sessions={s.session: s for s in found})
    f.final_stock = next((st["stock"] for st in reversed(stock_states(records)) if st["final"]), None)
    f.stale_rejections = sum(1 for r in decisions(records) if r.get("reason") == "stale-token")
    cluster = next((r for r in records if r.get("proc") == "driver" and r.get("event") == "cluster"), {})
    members = set(cluster.get("members", {}))
    crash = next((r for r in records if r.get("proc") == "driver" and r.get("event") == "fault"
                  and r.get("kind") == "crash" and r.get("target") in members), None)
    if crash is not None:
        f.leader_crash_ns = crash.get("fault_t_ns", crash["t_ns"])
        # The driver asks every 100 ms: the first answer bounds the election from above.
        f.elected_ns = next((r["t_ns"] for r in records if r.get("proc") == "driver" and r.get("event") == "leader"
                             and r.get("after_crash_of") == crash["target"] and r.get("leader")), None)
    return f


def from_sim(trace: list[dict]) -> Facts:
    """From a `locksim run --trace` file's records (t in true-time ns)."""
    ttl = {}
    expired = {}
    for r in trace:
        if r["type"] == "store-session":
            if r.get("event") == "opened":
                ttl.setdefault(r["client"], r["ttl_ns"])
            elif r.get("event") == "expired":
                expired.setdefault(r["client"], r["t"])
    sessions = {}
    by_number = {}
    for r in trace:
        if r["type"] == "grant" and r["session"] not in by_number:
            s = Session(client=r["client"], session=str(r["session"]), ttl_ns=ttl.get(r["client"], 0),
                        grant_ns=r["t"], value=r.get("value"))
            s.want_ns = max((x["t"] for x in trace if x["type"] == "invoke" and x.get("kind") == "acquire"
                             and x.get("client") == r["client"] and x["t"] <= r["t"]), default=None)
            sessions[s.session] = s
            by_number[r["session"]] = s
    for r in trace:
        s = by_number.get(r.get("session"))
        kind = r["type"]
        if kind == "promise" and s is not None:
            s.deadlines.append((r["at"], r["promised_end"]))
            if r.get("from") == "extend":
                s.replies.append(r["at"])
        elif kind == "belief-end" and s is not None and s.belief_end_ns is None:
            s.belief_end_ns, s.belief_end_reason = r["t"], r.get("reason")
        elif kind == "release" and s is not None and s.release_ns is None:
            s.release_ns = r["t"]
        elif kind == "op" and s is not None and r.get("accepted") and r.get("op") == "write":
            s.writes.append(r["t"])
    for s in sessions.values():
        s.deadlines.sort()
        s.replies.sort()
        dropped = [r["t"] for r in trace if r["type"] == "key-dropped" and r.get("value") == s.value]
        s.key_deleted_ns = min(dropped) if dropped else expired.get(s.client)
    f = Facts(t0_ns=0, sessions=sessions)
    f.final_stock = next((r["stock"] for r in reversed(trace) if r["type"] == "app" and r.get("app") == "stock"
                          and r.get("quiescent")), None)
    f.stale_rejections = sum(1 for r in trace if r["type"] == "op" and r.get("reject") == "stale-token")
    for r in trace:
        if r["type"] == "fault" and r.get("fault") == "crash" and f.leader_crash_ns is None:
            led = [x for x in trace if x["type"] == "role" and x.get("role") == "leader" and x["t"] <= r["t"]
                   and x.get("node") == r.get("target")]
            if led:
                f.leader_crash_ns = r["t"]
                f.elected_ns = next((x["t"] for x in trace if x["type"] == "role" and x.get("role") == "leader"
                                     and x["t"] > r["t"] and x.get("node") != r.get("target")), None)
    return f


def read_jsonl(path: str) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
