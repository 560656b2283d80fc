"""One redis-server on loopback, its persistence as the story says, and its
MONITOR reader.

Started on a free port with an empty working directory and `--save ""`;
`--appendonly no` (a killed server comes back empty) unless the story's
`redis.persistence` asks for an AOF (`aof-always`, `aof-everysec`: fsync on
every write, or once a second). A killed server restarts on the same port
from the same directory; whether the key came back is read from it
(restart()), never assumed. A MONITOR connection feeds a KeyTracker
(keyevents.py); its events are mapped from the server's wall clock onto the
common clock with the wall-minus-monotonic difference read when the server
started (the server's clock is the machine's; wall_steps.py's subclass runs
it under the clock shim and maps its stepped clock back).
"""
import os
import signal
import socket
import threading
import time

from . import procs
from .keyevents import KeyTracker, monitor_source_port, parse_monitor_line

_END_MARK = "locksim-monitor-end"
_RESTART_MARK = "locksim-restart-read"
PERSISTENCE = {"none": ["--appendonly", "no"],
               "aof-always": ["--appendonly", "yes", "--appendfsync", "always"],
               "aof-everysec": ["--appendonly", "yes", "--appendfsync", "everysec"]}


class RedisNode:
    def __init__(self, name: str, key: str, workdir: str, t0_ref, wall_minus_mono_ns: int, env: dict | None = None,
                 persistence: str = "none", extra_args: list[str] | None = None):
        if persistence not in PERSISTENCE:
            raise ValueError(f"redis.persistence {persistence!r}: the real nodes run {', '.join(PERSISTENCE)}")
        self.name = name
        self.port = procs.free_port()
        self.dir = os.path.join(workdir, name)
        os.makedirs(self.dir)
        self.records: list[dict] = []
        self._t0_ref = t0_ref               # callable: the story's t0 on the monotonic clock
        self._offset = wall_minus_mono_ns
        self.tracker = KeyTracker(key, self._emit)
        self._log = open(os.path.join(self.dir, "redis.log"), "w")
        self._env, self.persistence = env, persistence
        self._extra_args = list(extra_args or [])     # replication's options (replication.py)
        # The ports a replica's master link comes from: what its master sends is replication,
        # not a client's command, and locksim records a node's keys only while it is a master.
        self.master_link_ports: set[int] = set()
        self._killed_at = None
        self._restart_read = None           # the MONITOR lines held back during a restart's read (restart())
        self._start()

    def _start(self) -> None:
        self.proc = procs.start(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                 "--save", "", *PERSISTENCE[self.persistence], "--dir", self.dir,
                                 "--protected-mode", "no", "--daemonize", "no", *self._extra_args],
                                env=self._env, stdout=self._log, stderr=self._log)
        self._wait_ready()
        self._monitor = socket.create_connection(("127.0.0.1", self.port))
        self._monitor.sendall(b"MONITOR\r\n")
        self._reader = threading.Thread(target=self._read, name=f"monitor-{self.name}", daemon=True)
        self._reader.start()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"redis-server {self.name} did not answer on port {self.port}")

    def _emit(self, kind: str, wall_ns: int, fields: dict) -> None:
        t = wall_ns - self._offset - self._t0_ref()
        self.records.append({"t": t, "p": self.name, "local": wall_ns, "type": kind,
                             "key": self.tracker.key, **fields})

    def _read(self) -> None:
        buf = b""
        try:
            while True:
                chunk = self._monitor.recv(65536)
                if not chunk:
                    return
                buf += chunk
                *lines, buf = buf.split(b"\r\n")
                for raw in lines:
                    text = raw.decode("utf-8", "replace")
                    if self.master_link_ports and monitor_source_port(text) in self.master_link_ports:
                        continue
                    parsed = parse_monitor_line(text)
                    if parsed and [a.lower() for a in parsed[1]] == ["echo", _END_MARK]:
                        return
                    if parsed and self._restart_read is not None:
                        self._restart_feed(parsed)
                    elif parsed:
                        self.tracker.command(*parsed)
        except OSError:
            return

    def kill(self) -> int:
        """SIGKILL (a crash); returns the wall-clock instant. Without persistence its keys
        are lost then; with an AOF, restart() reads what came back."""
        wall = self._server_wall_now()
        procs.signal_group(self.proc, signal.SIGKILL)
        self.proc.wait()
        self._reader.join(timeout=5)
        self._monitor.close()
        if self.persistence == "none":
            self.tracker.crash(wall)
        self._killed_at = wall
        procs.forget(self.proc)
        return wall

    @property
    def killed_at(self) -> int | None:
        """The server's wall-clock instant of the last kill(), None if never killed."""
        return self._killed_at

    def restart(self) -> None:
        """Starts the server again on its port and directory, and reads whether the key came back.

        The read is a GET, a PTTL and an ECHO mark on a connection of the driver's; the MONITOR
        feed is held back until the mark, so that the key's state at the restart is set before
        any client command after it, and a client command that came before the read (a client
        reconnecting within that millisecond) makes the key events inexact rather than misordered."""
        self._restart_read = []
        self._restart_ready = threading.Event()
        self._start()
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
            key = self.tracker.key.encode()
            s.sendall(b"GET " + key + b"\r\nPTTL " + key + b"\r\nECHO " + _RESTART_MARK.encode() + b"\r\n")
            replies = _read_replies(s, 3)
        self._restart_value = (replies[0], int(replies[1]), self._server_wall_now())
        self._restart_ready.set()

    def _restart_feed(self, parsed) -> None:
        wall_ns, args = parsed
        if [a.lower() for a in args] != ["echo", _RESTART_MARK]:
            self._restart_read.append(parsed)
            return
        self._restart_ready.wait(timeout=5)
        value, pttl_ms, read_wall = self._restart_value
        held = [a for _, a in self._restart_read if len(a) > 1 and a[1] == self.tracker.key]
        if held and [a[0].lower() for a in held][:1] != ["get"]:
            self.tracker.exact = False
            self.tracker.ambiguities.append(f"{self.name}: a client command on the key came before the restart read")
        self.tracker.restarted(self._killed_at, read_wall, value, pttl_ms)
        queued, self._restart_read = self._restart_read, None
        for line in queued:
            self.tracker.command(*line)

    def _server_wall_now(self) -> int:
        """The server's own wall clock now (wall_steps.py's server reads the machine's plus its offset)."""
        return time.time_ns()

    def close(self, end_wall_ns: int) -> None:
        """Lets MONITOR catch up, records expiries due by end_wall_ns, stops the server."""
        if self.proc.poll() is None:
            # A command of our own marks the end of the feed: everything the
            # clients did comes before it in MONITOR's order.
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                s.sendall(f"ECHO {_END_MARK}\r\n".encode())
                s.recv(64)
            self._reader.join(timeout=5)
            self.tracker.finish(end_wall_ns)
        self._monitor.close()
        procs.stop(self.proc)
        self._log.close()


def _read_replies(sock: socket.socket, n: int) -> list:
    """n RESP replies of the simple kinds GET, PTTL and ECHO give: bulk strings (None for nil) and integers."""
    buf = b""
    out: list = []
    while len(out) < n:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("redis-server closed the connection during the restart read")
        buf += chunk
        out = []
        rest = buf
        while rest and len(out) < n:
            line, sep, after = rest.partition(b"\r\n")
            if not sep:
                break
            if line.startswith(b":"):
                out.append(int(line[1:]))
                rest = after
            elif line == b"$-1":
                out.append(None)
                rest = after
            elif line.startswith(b"$"):
                size = int(line[1:])
                if len(after) < size + 2:
                    break
                out.append(after[:size].decode("utf-8", "replace"))
                rest = after[size + 2:]
            else:
                raise RuntimeError(f"unexpected reply {line[:80]!r} during the restart read")
    return out
