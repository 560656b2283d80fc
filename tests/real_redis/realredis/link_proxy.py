"""A network link made for real between two processes on loopback: a TCP
proxy in the driver that delays, cuts and heals what flows through it.

Why a proxy: redis-server and the sentinels talk over TCP to the address
they were given; giving them the proxy's port instead puts the driver on the
wire without changing either program. What it makes:

- **delay**: each chunk read from one side is written to the other `delay`
  after it was read (asynchronous replication's lag, the story's
  `replication_delay`), in order;
- **cut** (a partition): nothing is delivered either way; what is sent is
  held, as TCP holds unacknowledged segments, and a new connection is
  accepted but carries nothing — the peer sees silence, never a refusal;
- **heal**: what was held is delivered, as TCP's retransmissions would;
- **lose** (the sending machine crashed): what the proxy still holds from
  that side is dropped and both ends are closed — bytes a crashed machine
  had not yet put on the wire never arrive.

One Link per (listening port, target port); it serves every connection made
to it, each as two pumps (one per direction) on driver threads. Times are
CLOCK_MONOTONIC (procs.now_ns).
"""
import collections
import socket
import threading

from . import procs


class _Direction:
    """One direction of one connection: chunks read and the instant each may be delivered."""

    def __init__(self, src: socket.socket, dst: socket.socket):
        self.src, self.dst = src, dst
        self.queue: collections.deque = collections.deque()
        self.ready = threading.Condition()


class Link:
    def __init__(self, name: str, target_port: int, delay_ns: int = 0):
        self.name = name
        self.target_port = target_port
        self.delay_ns = delay_ns          # applied to the target -> client direction (the target's writes)
        self._cut = False
        self._closed = False
        self._lock = threading.Lock()
        self._directions: list[_Direction] = []
        self._from_target: list[_Direction] = []     # the target's writes: what a crash of its machine loses
        self._sockets: list[socket.socket] = []
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(64)
        self.port = self._server.getsockname()[1]
        threading.Thread(target=self._accept, name=f"link-{name}", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            try:
                target = socket.create_connection(("127.0.0.1", self.target_port), timeout=2)
                target.settimeout(None)
            except OSError:
                client.close()      # the target is down: refused, as a direct connection would be
                continue
            for s in (client, target):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                if self._closed:
                    client.close()
                    target.close()
                    return
                self._sockets += [client, target]
                pairs = [(_Direction(client, target), 0), (_Direction(target, client), self.delay_ns)]
                self._directions += [d for d, _ in pairs]
                self._from_target.append(pairs[1][0])
            for direction, delay in pairs:
                threading.Thread(target=self._read, args=(direction, delay), daemon=True).start()
                threading.Thread(target=self._write, args=(direction,), daemon=True).start()

    def _read(self, d: _Direction, delay_ns: int) -> None:
        while True:
            try:
                chunk = d.src.recv(65536)
            except OSError:
                chunk = b""
            with d.ready:
                d.queue.append((procs.now_ns() + delay_ns, chunk))     # b"": the end, delivered in order
                d.ready.notify()
            if not chunk:
                return

    def _write(self, d: _Direction) -> None:
        while True:
            with d.ready:
                while not d.queue or self._cut:
                    if self._closed:
                        return
                    d.ready.wait(0.05)
                due, chunk = d.queue[0]
                wait_ns = due - procs.now_ns()
                if wait_ns > 0:
                    d.ready.wait(wait_ns / 1e9)
                    continue
                d.queue.popleft()
            try:
                if not chunk:
                    d.dst.shutdown(socket.SHUT_WR)
                    return
                d.dst.sendall(chunk)
            except OSError:
                return

    def cut(self) -> None:
        """A partition: from now on nothing is delivered either way; what is sent is held."""
        self._cut = True

    def heal(self) -> None:
        """The partition ends: what was held is delivered, in order."""
        self._cut = False
        for d in list(self._directions):
            with d.ready:
                d.ready.notify()

    def lose_from_target(self) -> None:
        """The target's machine crashed: what it had sent and the proxy still holds is dropped,
        and every connection is closed."""
        with self._lock:
            for d in self._from_target:
                with d.ready:
                    d.queue.clear()
            for s in self._sockets:
                _close(s)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            _close(self._server)
            for s in self._sockets:
                _close(s)
        for d in self._directions:
            with d.ready:
                d.ready.notify()


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
