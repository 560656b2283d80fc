"""What a run did to each lock session, from real records or from a locksim trace.

Both sides are reduced to the same facts, so that one set of magnitude
functions (magnitudes.py) measures a real repetition and a simulated seed
alike. Per session (one per client in these stories):

  grant_ns        the client learned it holds the lock (Lock returned nil;
                  locksim's `grant`)
  deadlines       (instant, deadline) each time the client's own deadline
                  was set: when its keepalive started (clientv3 gives a new
                  entry now + DialTimeout + 1 s until the first reply) and at
                  each keepalive reply (its arrival + the reply's TTL) (real);
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
  writes          instants of its accepted writes at the resource

A client's promised window, at an instant, ends at the latest deadline set
by then (clientv3/lease.go: KeepAlive and recvKeepAlive set it; an
extension never moves the end backwards, as docs/properties.md says).
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
    sessions: dict      # client -> Session
    leader_crash_ns: int | None = None   # a store member that led was crashed
    elected_ns: int | None = None        # another member leads, the first time it is known

    def get(self, client: str) -> Session | None:
        return self.sessions.get(client)


def _run_record(records):
    for r in records:
        if r.get("proc") == "driver" and r.get("event") == "run":
            return r
    raise ValueError("no driver `run` record: not a real-run record file")


def from_real(records: list[dict]) -> Facts:
    run = _run_record(records)
    prefix = run["prefix"]
    end_ns = max((r["t_ns"] for r in records if r.get("proc") == "driver" and r.get("event") in ("end", "cap")),
                 default=max(r["t_ns"] for r in records))
    sessions = {}
    for client in run["clients"]:
        mine = [r for r in records if r.get("proc") == client]
        lease = next((r for r in mine if r["event"] == "lease"), None)
        if lease is None:
            continue
        s = Session(client=client, session=lease["lease"], ttl_ns=lease["ttl_s"] * 1_000_000_000)
        replies = [r for r in mine if r["event"] == "keepalive" and r.get("ttl_s", 0) > 0]
        s.replies = sorted(r["t_ns"] for r in replies)
        s.deadlines = sorted([(r["t_ns"], r["deadline_ns"]) for r in mine if r["event"] == "keepalive-start"]
                             + [(r["t_ns"], r["t_ns"] + r["ttl_s"] * 1_000_000_000) for r in replies])
        grant = next((r for r in mine if r["event"] == "grant"), None)
        s.grant_ns = grant["t_ns"] if grant else None
        s.done_ns = next((r["t_ns"] for r in mine if r["event"] == "done"), None)
        s.release_ns = next((r["t_ns"] for r in mine if r["event"] == "unlock-invoke"), None)
        key = f"{prefix}/{s.session}"
        s.key_deleted_ns = next((r["t_ns"] for r in records if r.get("proc") == "observer"
                                 and r.get("event") == "delete" and r.get("key") == key), None)
        s.writes = sorted(r["t_ns"] for r in records if r.get("proc") == "resource" and r.get("event") == "op"
                          and r.get("accepted") and r.get("op") == "write" and r.get("session") == s.session)
        if s.grant_ns is not None:
            ends = []
            if s.release_ns is not None:
                ends.append((s.release_ns, "released"))
            ends += [(r["t_ns"], "done-closed") for r in mine if r["event"] == "belief-end"]
            ends += [(r["t_ns"], "killed") for r in records if r.get("proc") == "driver"
                     and r.get("event") == "signal" and r.get("target") == client and r.get("signal") == "SIGKILL"
                     and r.get("sent")]
            ends += [(r["t_ns"], "exited") for r in records if r.get("proc") == "driver"
                     and r.get("event") == "proc-exit" and r.get("target") == client]
            ends.append((end_ns, "run-end"))
            ends = [e for e in ends if e[0] >= s.grant_ns]
            s.belief_end_ns, s.belief_end_reason = min(ends)
        sessions[client] = s
    f = Facts(t0_ns=run["t0_ns"], sessions=sessions)
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
        if r["type"] == "grant" and r["client"] not in sessions:
            s = Session(client=r["client"], session=str(r["session"]), ttl_ns=ttl.get(r["client"], 0),
                        grant_ns=r["t"], value=r.get("value"))

            sessions[r["client"]] = s
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
