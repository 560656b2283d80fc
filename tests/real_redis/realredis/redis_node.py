"""One redis-server on loopback, no persistence, and its MONITOR reader.

Started on a free port with an empty working directory, `--save ""` and
`--appendonly no`: a killed server comes back (if at all) empty, as the
catalogue's crash stories assume. A MONITOR connection feeds a KeyTracker
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
from .keyevents import KeyTracker, parse_monitor_line

_END_MARK = "locksim-monitor-end"


class RedisNode:
    def __init__(self, name: str, key: str, workdir: str, t0_ref, wall_minus_mono_ns: int, env: dict | None = None):
        self.name = name
        self.port = procs.free_port()
        self.dir = os.path.join(workdir, name)
        os.makedirs(self.dir)
        self.records: list[dict] = []
        self._t0_ref = t0_ref               # callable: the story's t0 on the monotonic clock
        self._offset = wall_minus_mono_ns
        self.tracker = KeyTracker(key, self._emit)
        self._log = open(os.path.join(self.dir, "redis.log"), "w")
        self.proc = procs.start(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                 "--save", "", "--appendonly", "no", "--dir", self.dir,
                                 "--protected-mode", "no", "--daemonize", "no"],
                                env=env, stdout=self._log, stderr=self._log)
        self._wait_ready()
        self._monitor = socket.create_connection(("127.0.0.1", self.port))
        self._monitor.sendall(b"MONITOR\r\n")
        self._reader = threading.Thread(target=self._read, name=f"monitor-{name}", daemon=True)
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
                    parsed = parse_monitor_line(raw.decode("utf-8", "replace"))
                    if parsed and [a.lower() for a in parsed[1]] == ["echo", _END_MARK]:
                        return
                    if parsed:
                        self.tracker.command(*parsed)
        except OSError:
            return

    def kill(self) -> int:
        """SIGKILL (a crash); returns the wall-clock instant. Its keys are lost."""
        wall = time.time_ns()
        procs.signal_group(self.proc, signal.SIGKILL)
        self.proc.wait()
        self._reader.join(timeout=5)
        self.tracker.crash(wall)
        procs.forget(self.proc)
        return wall

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
