"""The real-ZooKeeper referee's processes: ZooKeeper servers, Java clients and the observer —
what the smoke and no-leftovers tests look for (tests/real_common/leftovers.py)."""
import os

import leftovers

RUN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run")
MARKERS = (b"QuorumPeerMain", b"locksim.ZkClient", b"locksim.ZkObserver")
pids = leftovers.pids


def alive_ours(pid: int) -> bool:
    return leftovers.alive_ours(pid, MARKERS)


def smoke_run(out: str) -> tuple[list[str], dict, str]:
    return leftovers.smoke_run(RUN, out)
