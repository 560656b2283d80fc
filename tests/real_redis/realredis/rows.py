"""Which catalogue rows run for real, with which client, and why others do not.

A row is SCENARIO:VARIANT. `client` is the library every client of the row
uses: `plain` (a SET NX PX client written to the scenario's single-node
protocol: these stories are not about a library), `redlock4` (node-redlock
4.2.0) or `redlock5` (node-redlock 5.0.0-beta.2), unmodified.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    scenario: str
    variant: str
    client: str
    note: str

    @property
    def label(self) -> str:
        return f"{self.scenario}:{self.variant}"


ROWS = [
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
]

SMOKE = ROWS[0]

# Rows not run for real, and why (docs/real-redis.md repeats this list).
NOT_MIRRORED = {
    "client-presets:redlock-rb / redlock-py / redsync":
        "Ruby, Python and Go libraries: not installable here (no RubyGems, PyPI or module proxy)",
    "redlock-crash-restart":
        "needs a killed node restarted on its port and the driver reacting to the client's quorum; not built in this time box",
    "redlock-clock-jump / redlock-clock-drift":
        "step or drift of one redis-server's clock: the wall-clock shim of tests/redis_diff is not wired here yet; "
        "the clients' Date.now() shim (node/clock_shim.js) exists but no mirrored row steps a client clock",
    "redlock-delayed-replies":
        "needs a delaying TCP proxy per client-node link; not built in this time box",
    "setnx-then-expire-crash / del-without-owner-check / fencing-*":
        "their clients are not node-redlock and not the plain SET NX PX client (two-command acquire, DEL without check, "
        "multi-step fenced ops): each needs its own client; not built in this time box",
    "master-replica-failover / sentinel-split-brain":
        "replication and Sentinel: not in this referee",
}


def find(label: str) -> Row:
    for row in ROWS:
        if row.label == label:
            return row
    raise KeyError(f"{label}: not a mirrored row (rows: {', '.join(r.label for r in ROWS)})")
