"""The driver's own Redis connection: commands written in RESP, replies read
back as Python values (bulk strings as str, nil as None, integers as int,
arrays as lists, errors raised). The driver's few commands (ROLE, INFO,
SENTINEL …) need nothing more, and the clients' library stays out of the
driver.
"""
import socket


class RedisError(Exception):
    pass


class Connection:
    def __init__(self, port: int, timeout: float = 2.0):
        self._sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self._buf = b""

    def command(self, args: list[str]):
        out = [f"*{len(args)}\r\n".encode()]
        for a in args:
            data = str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(data), data))
        self._sock.sendall(b"".join(out))
        return self._reply()

    def _line(self) -> bytes:
        while b"\r\n" not in self._buf:
            self._more()
        line, self._buf = self._buf.split(b"\r\n", 1)
        return line

    def _more(self) -> None:
        chunk = self._sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self._buf += chunk

    def _reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RedisError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            size = int(rest)
            if size < 0:
                return None
            while len(self._buf) < size + 2:
                self._more()
            data, self._buf = self._buf[:size], self._buf[size + 2:]
            return data.decode("utf-8", "replace")
        if kind == b"*":
            size = int(rest)
            return None if size < 0 else [self._reply() for _ in range(size)]
        raise RedisError(f"unexpected reply {line[:80]!r}")

    def close(self) -> None:
        self._sock.close()


def request(port: int, args: list[str]):
    """One command on a connection of its own."""
    conn = Connection(port)
    try:
        return conn.command(args)
    finally:
        conn.close()
