"""A redis-server's `key-held` / `key-dropped` events, from its MONITOR feed.

MONITOR shows every command the server executed, those run inside a Lua
script included (`[0 lua]`), with the server's wall-clock time of each, in
execution order. For the lock's key:

- `set` without NX (node-redlock 4.2.0's and 5.0.0-beta.2's scripts check
  EXISTS first and then SET … PX; their extend scripts too) always takes
  effect: key-held, and key-dropped `overwritten` if another value was held;
- `set … NX` (the plain client) and `setnx` take effect iff the key is absent then;
- `del` (only reached, in the release scripts, when the value matched) drops
  it: `deleted`; `pexpire`/`pexpireat`/`expire` move its expiry;
- its PX expiry drops it `expired` at set time + PX: the instant after which
  the server would have let anyone else take it (Redis deletes an expired key
  lazily or in its expire cycle later; that moment does not matter to the
  lock and MONITOR does not show it);
- a SIGKILL of the server drops it `lost-in-crash` (no persistence).

Whether an NX set took effect is known only from the key's state at that
instant. When the set came within AMBIGUOUS_NS of the held key's computed
expiry (the server's millisecond expiry arithmetic and MONITOR's timestamp,
taken after the command, differ by about that much), it cannot be told:
the tracker then says `exact = False`, and the history's service.recorded
is false (P4 unknown), never a guess.
"""
import re

AMBIGUOUS_NS = 2_000_000
_ARG = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "a": "\a", "b": "\b", '"': '"', "\\": "\\"}


def _unescape(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            n = text[i + 1]
            if n == "x" and i + 3 < len(text):
                out.append(chr(int(text[i + 2:i + 4], 16)))
                i += 4
                continue
            out.append(_ESCAPES.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_monitor_line(line: str):
    """'+1732.123456 [0 lua] "set" "lock" "v" "PX" "10000"' -> (wall_ns, ['set','lock','v','PX','10000']); None for others."""
    if not line.startswith("+") or " [" not in line:
        return None
    stamp, rest = line[1:].split(" ", 1)
    try:
        seconds, micros = stamp.split(".")
        wall_ns = int(seconds) * 1_000_000_000 + int(micros.ljust(6, "0")[:6]) * 1_000
    except ValueError:
        return None
    close = rest.find("] ")
    if close < 0:
        return None
    args = [_unescape(a) for a in _ARG.findall(rest[close + 2:])]
    return (wall_ns, args) if args else None


_SOURCE = re.compile(r"^\+[0-9.]+ \[[0-9]+ [^\]]*:([0-9]+)\] ")


def monitor_source_port(line: str) -> int | None:
    """The port of the connection a MONITOR line's command came from ('[0 127.0.0.1:6380]'); None for Lua."""
    m = _SOURCE.match(line)
    return int(m.group(1)) if m else None


class KeyTracker:
    """The lock key's state on one node, fed its MONITOR commands in order.

    emit(kind, wall_ns, fields) is called for every key event; times are the
    server's wall clock (the driver maps them onto the common clock)."""

    def __init__(self, key: str, emit):
        self.key = key
        self.emit = emit
        self.value = None          # held value, None when absent
        self.expires_ns = None     # wall ns at which it expires, None: never
        self.last_expiry_ns = None
        self.exact = True
        self.ambiguities: list[str] = []

    def _expire_until(self, wall_ns: int) -> None:
        if self.value is not None and self.expires_ns is not None and self.expires_ns <= wall_ns:
            self.emit("key-dropped", self.expires_ns, {"value": self.value, "reason": "expired"})
            self.last_expiry_ns = self.expires_ns
            self.value = None
            self.expires_ns = None

    def _near_expiry(self, wall_ns: int) -> bool:
        for e in (self.expires_ns if self.value is not None else None, self.last_expiry_ns):
            if e is not None and abs(wall_ns - e) < AMBIGUOUS_NS:
                return True
        return False

    def command(self, wall_ns: int, args: list[str]) -> None:
        if len(args) < 2 or args[1] != self.key:
            return
        name = args[0].lower()
        self._expire_until(wall_ns)
        if name == "set":
            self._set(wall_ns, args)
        elif name == "setnx" and len(args) > 2:      # SETNX key value: SET key value NX, no expiry
            self._set(wall_ns, ["set", args[1], args[2], "NX"])
        elif name in ("del", "unlink", "getdel"):
            if self.value is not None:
                self.emit("key-dropped", wall_ns, {"value": self.value, "reason": "deleted"})
                self.value = None
                self.expires_ns = None
        elif name in ("pexpire", "expire", "pexpireat", "expireat") and self.value is not None and len(args) > 2:
            n = int(args[2])
            self.expires_ns = {"pexpire": wall_ns + n * 1_000_000, "expire": wall_ns + n * 1_000_000_000,
                               "pexpireat": n * 1_000_000, "expireat": n * 1_000_000_000}[name]

    def _set(self, wall_ns: int, args: list[str]) -> None:
        options = [a.lower() for a in args[3:]]
        if "nx" in options:
            if self._near_expiry(wall_ns):
                self.exact = False
                self.ambiguities.append(f"SET NX at wall {wall_ns} within {AMBIGUOUS_NS} ns of an expiry")
            if self.value is not None:
                return     # refused: the key is held
        if "xx" in options and self.value is None:
            return
        expires = None
        for i, o in enumerate(options):
            if o == "px":
                expires = wall_ns + int(args[3 + i + 1]) * 1_000_000
            elif o == "ex":
                expires = wall_ns + int(args[3 + i + 1]) * 1_000_000_000
        if self.value is not None:
            self.emit("key-dropped", wall_ns, {"value": self.value, "reason": "overwritten"})
        self.value = args[2]
        self.expires_ns = expires
        self.emit("key-held", wall_ns, {"value": self.value})

    def crash(self, wall_ns: int) -> None:
        """The server was killed at wall_ns: whatever it held is gone."""
        self._expire_until(wall_ns)
        if self.value is not None:
            self.emit("key-dropped", wall_ns, {"value": self.value, "reason": "lost-in-crash"})
            self.value = None
            self.expires_ns = None

    def restarted(self, killed_ns: int, read_ns: int, value, pttl_ms: int) -> None:
        """The server killed at killed_ns came back, and at read_ns (its clock) held value
        (None: no key) with pttl_ms to live (-1: no expiry). A key it held at the kill and
        still holds survived; one it no longer holds was lost at the kill — unless its expiry
        fell between the kill and the read, when the two cannot be told apart (inexact)."""
        self._expire_until(killed_ns)
        if self.value is None:
            if value is not None:
                self._inexact(f"a key {value!r} came back that was not held at the kill")
            return
        if value == self.value:
            self.expires_ns = read_ns + pttl_ms * 1_000_000 if pttl_ms >= 0 else None
            return
        if value is None and self.expires_ns is not None and self.expires_ns <= read_ns:
            self._inexact("the key's expiry fell between the kill and the restart")
            self._expire_until(read_ns)
            return
        if value is not None:
            self._inexact(f"the key came back as {value!r}, not the {self.value!r} held at the kill")
        self.crash(killed_ns)

    def _inexact(self, why: str) -> None:
        self.exact = False
        self.ambiguities.append(why)

    def finish(self, wall_ns: int) -> None:
        """The history ends at wall_ns: an expiry due by then is recorded."""
        self._expire_until(wall_ns)
