"""A machine crash of a redis-server whose AOF is fsynced once a second,
made for real by losing what was not fsynced.

A SIGKILL of a process leaves its write()s in the page cache, where the
restarted server reads them back: that is the scenario's `what = "process"`.
A machine crash (`what = "machine"`, the default) loses the page cache. For
a node with `redis.persistence = "aof-everysec"` that a machine crash hits,
redis-server runs under liblocksim_volatile_writes_shim.so
(volatile_writes_shim.c): its INCR AOF's write()s stay in the process until
the bio thread's fdatasync writes them, so the SIGKILL loses exactly what a
power loss would. `aof-always` needs no shim (Redis fdatasyncs before it
replies), nor does `none` (nothing is written).

The shim logs every held write and every sync with its wall-clock instant;
describe() turns the log into a sentence for the history's `source` (no
history field holds it): when the last write before the crash came in its
wall-clock second, and whether and when it was fsynced. Redis 7.0 fsyncs
everysec when `server.unixtime > server.aof_last_fsync` (aof.c,
flushAppendOnlyFile, checked after each write and at every event-loop turn),
so whether a write is lost depends on the wall clock's phase and on when the
previous fsync was, not on a timer started with the server.
"""
import os

from .story import Story

PATTERN = "*.incr.aof"           # Redis 7.0's INCR AOF files, under appendonlydir/
LOG = "volatile-writes.log"
SHIM_VARIABLE = "LOCKSIM_REAL_REDIS_VOLATILE_SHIM"


def wanted(story: Story, node: str) -> bool:
    """True if a machine crash hits node and its AOF is fsynced once a second."""
    if story.spec.get("redis", {}).get("persistence", "none") != "aof-everysec":
        return False
    return any(f.get("kind") == "crash" and f.get("target") == node and f.get("what", "machine") == "machine"
               for f in story.faults.values())


def env(node_dir: str) -> dict:
    """The environment a redis-server runs in under the shim, logging to node_dir/LOG."""
    shim = os.environ.get(SHIM_VARIABLE, "")
    if not shim or not os.path.exists(shim):
        raise ValueError(f"a machine crash of an aof-everysec node: {SHIM_VARIABLE} must name "
                         "liblocksim_volatile_writes_shim.so (built with the tests; run --volatile-shim)")
    return dict(os.environ, LD_PRELOAD=shim, LOCKSIM_VOLATILE_WRITES_PATTERN=PATTERN,
                LOCKSIM_VOLATILE_WRITES_LOG=os.path.join(node_dir, LOG))


def read_log(path: str) -> list[tuple[str, int, int]]:
    """(kind, bytes, wall_ns) per line: `held` a write kept in memory, `synced` the held bytes written
    and fsynced (bytes may be 0: an fsync with nothing held)."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            kind, _fd, size, wall = line.split()
            out.append((kind, int(size), int(wall)))
    return out


def describe(name: str, lines: list[tuple[str, int, int]], killed_wall_ns: int | None) -> str:
    """One sentence on the AOF's last write before the crash and its fsync."""
    if killed_wall_ns is None:
        return f"{name}: AOF under the volatile-writes shim, not crashed"
    before = [line for line in lines if line[2] <= killed_wall_ns]
    writes = [line for line in before if line[0] == "held"]
    if not writes:
        return f"{name}: AOF under the volatile-writes shim, no write before the crash"
    _, size, write_ns = writes[-1]
    phase_ms = (write_ns % 1_000_000_000) / 1e6
    text = (f"{name}: AOF under the volatile-writes shim; last write before the crash {size} bytes "
            f"{phase_ms:.1f} ms into its wall-clock second ({1000 - phase_ms:.1f} ms before the next), "
            f"killed {(killed_wall_ns - write_ns) / 1e6:.1f} ms after it; ")
    syncs = [line for line in before if line[0] == "synced" and line[2] >= write_ns and line[1] > 0]
    earlier = [line for line in before if line[0] == "synced" and line[2] < write_ns and line[1] > 0]
    if earlier:
        text += f"previous fsync {(write_ns - earlier[-1][2]) / 1e6:.1f} ms before it; "
    if syncs:
        return text + f"fsynced {(syncs[0][2] - write_ns) / 1e6:.1f} ms after it: kept"
    return text + "not fsynced: lost"
