"""Which catalogue rows run for real, with which client, and why others do not.

A row is SCENARIO:VARIANT. `client` is the library every client of the row
uses: `plain` (a SET NX PX client written to the scenario's single-node
protocol: these stories are not about a library), `redlock4` (node-redlock
4.2.0) or `redlock5` (node-redlock 5.0.0-beta.2), unmodified, or
`naive-redlock` (a hand-written Redlock client without the validity check,
node/redlock_modes.js). `modes`: the client takes the file's acquire, release
and fencing styles and may be stopped inside a request (node/modes.js,
story_faults.py).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    scenario: str
    variant: str
    client: str
    note: str
    modes: bool = False     # node/modes.js: acquire/release styles, stops inside a request (story_faults.py)

    @property
    def label(self) -> str:
        return f"{self.scenario}:{self.variant}"


ROWS = [
    Row("no-faults-single-node", "base", "plain",
        "the control: three plain clients, three cycles each (read, work 20 ms, write, release, think 100 ms), "
        "retries uniform(10ms, 50ms), no fault"),
    Row("no-faults-redlock", "base", "redlock4",
        "the control on five nodes: node-redlock 4.2.0 (parallel requests, retryDelay 30 ms with retryJitter 20 ms "
        "for uniform(10ms, 50ms)), three clients, three cycles each, no fault"),
    Row("single-node-gc-pause", "base", "plain",
        "plain SET NX PX client (the story is about a pause, not a library); c1 SIGSTOPped 15 s right after its read"),
    Row("single-node-gc-pause", "fenced", "plain",
        "as base, token from INCR on the node, the resource rejects stale tokens"),
    Row("redlock-pause-after-acquire", "base", "redlock4",
        "node-redlock 4.2.0 stands for the scenario's default Redlock client (parallel requests, drift 1 % + 2 ms); "
        "c2's retry delay is the file's 1 s, no jitter, unlimited tries"),
    Row("redlock-pause-after-acquire", "fenced", "redlock4",
        "as base, token from INCR on node A after the quorum"),
    Row("client-presets", "node-redlock-v4", "redlock4",
        "node-redlock 4.2.0 with its own defaults; c2 SIGSTOPped 12 s right after its first try fails"),
    Row("client-presets", "node-redlock-v5", "redlock5",
        "node-redlock 5.0.0-beta.2 with its own defaults; c2 SIGSTOPped 12 s right after its first try fails"),
    Row("setnx-then-expire-crash", "base", "plain",
        "plain client, SETNX then EXPIRE (two commands); c1 SIGKILLed right after SETNX's reply; c2 retries 1 s apart "
        "until the run ends", modes=True),
    Row("setnx-then-expire-crash", "atomic-set", "plain",
        "plain client, SET NX PX; c1 SIGKILLed right after the SET is written, before its reply is read", modes=True),
    Row("del-without-owner-check", "base", "plain",
        "plain client released with a plain DEL", modes=True),
    Row("del-without-owner-check", "compare-and-delete", "plain",
        "plain client released with the compare-and-delete script", modes=True),
    Row("redlock-delayed-replies", "base", "redlock4",
        "node-redlock 4.2.0 (c1 one try: retryCount 0), its scripts loaded before t0; c1 SIGSTOPped 12 s once its "
        "five EVALSHAs are written, before any reply is read", modes=True),
    Row("redlock-delayed-replies", "no-validity-check", "naive-redlock",
        "a hand-written Redlock client, not node-redlock (which cannot skip its check): SET NX PX on all five at "
        "once, granted on three OKs with no elapsed-time check; c1 SIGSTOPped 12 s once the SETs are written",
        modes=True),
    Row("redlock-delayed-replies", "wall-clock-step-back", "redlock4",
        "as base; c1's Date.now() steps back 10 s at t0 + 6 s (its clock_shim.js offset file)", modes=True),
    Row("fencing-token-taken-late", "base", "plain",
        "plain client, token by INCR after the grant; c1 SIGSTOPped 3 s once its SET is written; r1 runs under the "
        "vDSO clock shim and its wall clock steps +15 s at t0 + 1 s", modes=True),
    Row("fencing-token-taken-late", "incr-in-script", "plain",
        "as base, SET NX PX and INCR in one Lua script", modes=True),
    Row("redlock-clock-jump", "base", "redlock4",
        "node-redlock 4.2.0 (parallel requests; c2's retry delay uniform(100ms, 300ms) is its retryDelay 200 ms with "
        "retryJitter 100 ms); the partitions from the start as refused connections; C runs under the vDSO clock "
        "shim and its wall clock steps +15 s at t0 + 1 s", modes=True),
    Row("redlock-vs-etcd", "base", "redlock4",
        "the team's Redlock as deployed: redlock-clock-jump's story with node-redlock 4.2.0 (parallel requests where "
        "the file says sequential); partitions as refused connections, C's clock stepped +15 s under the shim",
        modes=True),
    Row("redlock-crash-restart", "base", "redlock4",
        "node-redlock 4.2.0 (parallel requests where the file's client is sequential with a 50 ms node timeout); "
        "the partitions as refused connections; C SIGKILLed at t0 + 0.5 s and restarted on its port 0.5 s later, "
        "no persistence", modes=True),
    Row("redlock-crash-restart", "delayed-restart", "redlock4",
        "as base, C restarted 11 s after the kill (redis.delayed_restart)", modes=True),
    Row("redlock-crash-restart", "aof-always", "redlock4",
        "as base, C with appendonly yes, appendfsync always: whether c1's key came back is read at the restart",
        modes=True),
    Row("redlock-crash-restart", "aof-everysec-soon", "redlock4",
        "as base, appendfsync everysec, C's machine crash 0.5 s after the write: C runs under the volatile-writes "
        "shim (its INCR AOF's writes held until fdatasync), so the SIGKILL loses what was not fsynced; t0 5 ms after "
        "a whole second of C's wall clock, a throwaway SET to C 1 ms after it, so C's last fsync is in t0's second "
        "as locksim's start makes it (aof_phase.py)", modes=True),
    Row("redlock-crash-restart", "aof-everysec-late", "redlock4",
        "as base, appendfsync everysec, C's machine crash at 3.5 s, under the volatile-writes shim as "
        "aof-everysec-soon (the write was fsynced long before), its fsync clock started at t0's second as there",
        modes=True),
    Row("redlock-crash-restart", "aof-everysec-process-crash", "redlock4",
        "as base, appendfsync everysec, C's process SIGKILLed 0.5 s after the write: the page cache keeps the AOF; "
        "its fsync clock started at t0's second as aof-everysec-soon's", modes=True),
    Row("redlock-clock-drift", "base", "redlock4",
        "node-redlock 4.2.0 (c2: retryDelay 10 ms, no jitter, unlimited tries); the partitions as refused "
        "connections; C under the vDSO clock shim, its offset set every millisecond to 2 % of the time since t0",
        modes=True),
    Row("redlock-clock-drift", "fast-0.5pct", "redlock4", "as base, C 0.5 % fast", modes=True),
    Row("no-faults-replicated", "base", "plain",
        "the replicated control: plain clients behind Sentinel (sentinel_follow.js: +switch-master, and a sentinel "
        "asked after a failed attempt); a master, a replica through a link, three real sentinels", modes=True),
    Row("master-replica-failover", "base", "plain",
        "plain clients behind Sentinel; R1 and R2 replicate through links that hold M's stream 10 ms; M's machine "
        "crashes while c1 waits at `acquired` (the links drop what they hold, then SIGKILL); three real sentinels "
        "(ping period 100 ms by SENTINEL DEBUG) fail over", modes=True),
    Row("master-replica-failover", "replicated-before-crash", "plain",
        "as base, M crashes at t0 + 1 s", modes=True),
    Row("master-replica-failover", "min-replicas-to-write", "plain",
        "as base, every node with min-replicas-to-write 1", modes=True),
    Row("sentinel-split-brain", "base", "plain",
        "plain clients behind Sentinel; zone 1 (M, c1) reaches zone 2 (R, the sentinels, c2) only through links, "
        "all cut at t0 + 1 s (held, as TCP holds unacknowledged data) and healed 9 s later", modes=True),
    Row("sentinel-split-brain", "min-replicas-to-write", "plain",
        "as base, min-replicas-to-write 1 and min-replicas-max-lag 1 on every node", modes=True),
    Row("fencing-multistep-collection", "base", "plain",
        "plain client, token by INCR after the grant; the resource (resource_apps.py) a collection behind fencing; "
        "c1 SIGSTOPped 15 s once its add is answered"),
    Row("fencing-multistep-collection", "atomic-add", "plain",
        "as base, one add-and-increment op"),
    Row("fencing-multistep-collection", "transactional", "plain",
        "as base, no fencing check: the resource stages a session's ops until its commit and rolls it back if "
        "another session committed since its first op; a rolled-back client releases and does its cycle again"),
    Row("fencing-multistep-collection", "no-lock-transactional", "none",
        "no lock and no redis-server (node/no_lock.js: every acquire granted at once, for 50 years where "
        "locksim's no-lock baseline says 100: a wall-clock history cannot hold 100); the transactional resource alone"),
    Row("fencing-newer-holder-not-yet-written", "base", "plain",
        "plain client, token by INCR after the grant; a register behind fencing; c1 SIGSTOPped 15 s and c2 9 s "
        "right after their grants"),
    Row("fencing-newer-holder-not-yet-written", "unique-token-cas", "plain",
        "plain client, no token; each session marks the resource with its random lock value and every op must "
        "match the mark; c2 SIGSTOPped 9 s once its mark is answered"),
    Row("oversell-incident", "base", "plain",
        "plain client released with a plain DEL; the identity service its own process (realredis/services.py), "
        "SIGSTOPped at t0 and continued 30 s later: the three buyers' calls wait in the kernel and are answered "
        "together; the stock app (resource_apps.py) with GET-compare-DECR", modes=True),
    Row("oversell-incident", "owner-checked-release", "plain",
        "as base, released with the compare-and-delete script", modes=True),
    Row("oversell-incident", "atomic-decrement", "plain",
        "as base, the resource checks and decrements the stock in one op (out-of-stock at zero)", modes=True),
    Row("transactional-contention", "base", "plain",
        "four plain clients x 20 cycles (add, call the backend service, 20 ms, increment-size, commit) on the "
        "transactional collection; retries uniform(10ms, 50ms); the network is loopback, not lognormal(1ms, 0.5)"),
    Row("transactional-contention", "no-lock", "none",
        "as base with no lock and no redis-server (node/no_lock.js): the transactional resource alone"),
    Row("transactional-contention", "pauses", "plain",
        "as base, c1 SIGSTOPped the 3rd time it reaches `added`, for a length drawn once per repetition from "
        "uniform(0s, 15s) (written in the history's source)"),
    Row("transactional-contention", "no-lock-pauses", "none",
        "as no-lock, with the same drawn pause of c1 at its 3rd `added`"),
]

SMOKE = next(r for r in ROWS if r.label == "single-node-gc-pause:base")

# Rows not run for real, and why (docs/real-redis.md repeats this list).
NOT_MIRRORED = {
    "client-presets:redlock-rb / redlock-py / redsync":
        "Ruby, Python and Go libraries: not installable here (no RubyGems, PyPI or module proxy)",
    "redlock-clock-jump:monotonic-expiry":
        "real Redis expires keys by its wall clock; the monotonic expiry is antirez's proposal, not a Redis release",
    "watchdog-renewal-gc / no-faults-watchdog":
        "Redisson's watchdog is a Java library: not installable here (no Maven repository)",
    "lease-by-observation":
        "Kubernetes and DynamoDB leases, not Redis: no such service here",
    "redlock-vs-etcd:tuned / tuned-gc-pause":
        "monotonic expiry, as redlock-clock-jump:monotonic-expiry; its etcd variants are the real-etcd referee's",
}


def find(label: str) -> Row:
    for row in ROWS:
        if row.label == label:
            return row
    raise KeyError(f"{label}: not a mirrored row (rows: {', '.join(r.label for r in ROWS)})")
