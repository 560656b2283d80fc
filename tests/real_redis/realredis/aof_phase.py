"""An everysec AOF's fsync clock started where locksim starts it.

Redis 7.0 fsyncs everysec when `server.unixtime > server.aof_last_fsync`
(aof.c, flushAppendOnlyFile): at the write itself, if the last fsync was in
an earlier wall-clock second, else at the first event-loop turn of a later
second. locksim (sim/redis/redis_node.cc, flush_aof) has the same rule and
counts the node's start as its last fsync; every locksim node starts at t0
with its wall clock on a whole second, so the last fsync's second is t0's.

The real server started seconds before t0, so its `aof_last_fsync` is an
earlier second and the first write after t0 would be fsynced at once. For a
node that a story crashes and whose AOF is `aof-everysec`, the driver
therefore chooses t0 T0_AFTER_NS after a whole second of that server's wall
clock (read with TIME, so a clock shim would be honoured) and writes one
throwaway key (THROWAWAY_KEY, no TTL, not the lock's key: the key events
ignore it) WRITE_AFTER_NS after that second, before t0. As the first write
of that second it is fsynced at once and `aof_last_fsync` becomes t0's
second, as C's start at t0 makes it in locksim. What was done (the second,
the write's and its reply's instants, t0) goes into the history's source.
"""
import socket
import threading
import time

from . import procs
from .story import Story

SECOND_NS = 1_000_000_000
WRITE_AFTER_NS = 1_000_000      # the throwaway write, after the whole second
T0_AFTER_NS = 5_000_000         # t0, after the whole second
THROWAWAY_KEY = "locksim:aof-start"


def nodes(story: Story, modes: bool) -> list[str]:
    """The nodes whose fsync clock is started at t0: an everysec AOF that a fault crashes."""
    if not modes or story.spec.get("redis", {}).get("persistence", "none") != "aof-everysec":
        return []
    crashed = {f.get("target") for f in story.faults.values() if f.get("kind") == "crash"}
    return [n for n in story.nodes if n in crashed]


def choose(earliest_mono_ns: int, server_wall_minus_mono_ns: int) -> tuple[int, int, int]:
    """(second_mono, write_mono, t0_mono): the first whole second of the server's wall clock at which
    t0 = second + T0_AFTER_NS is no earlier than earliest_mono_ns; the throwaway write WRITE_AFTER_NS
    after the second. All on the monotonic clock."""
    wall = earliest_mono_ns - T0_AFTER_NS + server_wall_minus_mono_ns
    second_wall = -(-wall // SECOND_NS) * SECOND_NS
    second_mono = second_wall - server_wall_minus_mono_ns
    return second_mono, second_mono + WRITE_AFTER_NS, second_mono + T0_AFTER_NS


def server_wall_minus_mono(port: int) -> int:
    """The server's wall clock (TIME) minus the monotonic clock, read at the midpoint of the round trip."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        before = procs.now_ns()
        s.sendall(b"TIME\r\n")
        seconds, micros = _read_time(s)
        after = procs.now_ns()
    return seconds * SECOND_NS + micros * 1000 - (before + after) // 2


def _read_time(sock: socket.socket) -> tuple[int, int]:
    buf = b""
    while buf.count(b"\r\n") < 5:
        chunk = sock.recv(4096)
        if not chunk:
            raise RuntimeError("redis-server closed the connection during TIME")
        buf += chunk
    lines = buf.split(b"\r\n")      # *2, $N, seconds, $N, micros
    return int(lines[2]), int(lines[4])


def check(second_wall_ns: int, sent_wall_ns: int | None, done_wall_ns: int | None, t0_wall_ns: int) -> str | None:
    """Why the throwaway write does not start the fsync clock as locksim's, or None if it does: sent
    no earlier than the whole second, and done (the server's TIME after its reply) before t0."""
    if sent_wall_ns is None or done_wall_ns is None:
        return "not written"
    if not second_wall_ns <= sent_wall_ns <= done_wall_ns < t0_wall_ns:
        def after(wall_ns):
            return f"{(wall_ns - second_wall_ns) / 1e6:.1f} ms"
        return (f"sent {after(sent_wall_ns)} and done {after(done_wall_ns)} after the second, "
                f"t0 {after(t0_wall_ns)} after it")
    return None


class FsyncClockStart:
    """The throwaway write to one node at its chosen second, on a thread of its own (the clients
    are being started meanwhile)."""

    def __init__(self, name: str, port: int, second_mono: int, write_mono: int, t0_mono: int, offset: int):
        self.name, self.port, self.offset = name, port, offset
        self.second_mono, self.write_mono, self.t0_mono = second_mono, write_mono, t0_mono
        self.sent_wall = self.replied_wall = self.time_after_wall = None
        self.error: str | None = None
        self._thread = threading.Thread(target=self._write, name=f"aof-start-{name}", daemon=True)
        self._thread.start()

    def _write(self) -> None:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                time.sleep(max(0.0, (self.write_mono - procs.now_ns()) / 1e9))
                sent = procs.now_ns()
                key = THROWAWAY_KEY.encode()
                s.sendall(b"SET " + key + b" 1\r\n")
                reply = s.recv(64)
                replied = procs.now_ns()
                s.sendall(b"TIME\r\n")
                seconds, micros = _read_time(s)
            if not reply.startswith(b"+OK"):
                self.error = f"SET {THROWAWAY_KEY}: {reply[:80]!r}"
            self.sent_wall, self.replied_wall = sent + self.offset, replied + self.offset
            self.time_after_wall = seconds * SECOND_NS + micros * 1000
        except (OSError, RuntimeError) as e:
            self.error = f"SET {THROWAWAY_KEY}: {e}"

    def wait(self) -> None:
        self._thread.join(timeout=5)

    def problem(self) -> str | None:
        """Why this repetition's fsync clock did not start as locksim's (checked on the server's own clock)."""
        self.wait()
        second_wall, t0_wall = self.second_mono + self.offset, self.t0_mono + self.offset
        why = self.error or check(second_wall, self.sent_wall, self.time_after_wall, t0_wall)
        return f"{self.name}: the throwaway AOF write {why}" if why else None

    def describe(self, held_wall_ns: int | None = None, synced_wall_ns: int | None = None) -> str:
        """One sentence for the history's source; held/synced: the shim's log of the write, if under it."""
        self.wait()
        second_wall = self.second_mono + self.offset

        def ms(wall):
            return f"{(wall - second_wall) / 1e6:.1f}"
        text = (f"{self.name}: fsync clock started at t0's wall second as in locksim: "
                f"t0 {ms(self.t0_mono + self.offset)} ms after a whole second of {self.name}'s wall clock (TIME); "
                f"SET {THROWAWAY_KEY} 1 sent at {ms(self.sent_wall)} ms"
                if self.sent_wall is not None else f"{self.name}: fsync clock start: {self.error}")
        if self.sent_wall is None:
            return text
        text += f", replied by {ms(self.replied_wall)} ms (server TIME after it {ms(self.time_after_wall)} ms)"
        if held_wall_ns is not None:
            text += f", AOF write at {ms(held_wall_ns)} ms"
            text += f", fsynced at {ms(synced_wall_ns)} ms" if synced_wall_ns is not None else ", not fsynced"
        return text
