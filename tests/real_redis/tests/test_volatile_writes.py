"""The volatile-writes shim loses what was not fsynced at a SIGKILL, and
only that: first a small program's own writes, then a real redis-server's AOF.

LOCKSIM_REAL_REDIS_VOLATILE_SHIM names liblocksim_volatile_writes_shim.so (CMake sets it)."""
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from realredis import procs
from realredis.redis_node import _read_replies

SHIM = os.environ.get("LOCKSIM_REAL_REDIS_VOLATILE_SHIM", "")
pytestmark = pytest.mark.skipif(not os.path.exists(SHIM), reason="LOCKSIM_REAL_REDIS_VOLATILE_SHIM not built")

# A child that appends to FILE, fsyncs if told, says so, and waits to be killed.
_WRITER = """
import os, sys
path, sync = sys.argv[1], sys.argv[2]
fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
os.write(fd, b"first ")
if sync != "none":
    getattr(os, sync)(fd)
os.write(fd, b"second")
print("written", flush=True)
sys.stdin.read()
"""


def _env(tmp_path, pattern="*.incr.aof"):
    return dict(os.environ, LD_PRELOAD=SHIM, LOCKSIM_VOLATILE_WRITES_PATTERN=pattern,
                LOCKSIM_VOLATILE_WRITES_LOG=str(tmp_path / "shim.log"))


def _write_and_kill(tmp_path, name, sync, pattern="*.incr.aof") -> bytes:
    path = tmp_path / name
    child = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), sync], env=_env(tmp_path, pattern),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "written"
    child.send_signal(signal.SIGKILL)
    child.wait()
    return path.read_bytes()


def test_a_write_never_fsynced_is_lost_at_a_sigkill(tmp_path):
    assert _write_and_kill(tmp_path, "a.1.incr.aof", "none") == b""


@pytest.mark.parametrize("sync", ["fsync", "fdatasync"])
def test_what_was_fsynced_survives_and_what_came_after_is_lost(tmp_path, sync):
    assert _write_and_kill(tmp_path, "a.1.incr.aof", sync) == b"first "
    log = (tmp_path / "shim.log").read_text().split()
    assert log[0::4] == ["held", "synced", "held"] and log[2::4] == ["6", "6", "6"]


def test_a_file_outside_the_pattern_keeps_every_write(tmp_path):
    assert _write_and_kill(tmp_path, "other.log", "none") == b"first second"


def test_a_clean_exit_writes_what_was_held(tmp_path):
    """close() (here at the interpreter's exit) writes the held bytes: the shim cannot lose them later."""
    path = tmp_path / "a.1.incr.aof"
    code = ("import os; fd = os.open(%r, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644); "
            "os.write(fd, b'kept'); os.close(fd)" % str(path))
    subprocess.run([sys.executable, "-c", code], env=_env(tmp_path), check=True)
    assert path.read_bytes() == b"kept"


def _redis(tmp_path, port, fsync_policy, shim=True):
    return procs.start(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "yes", "--appendfsync", fsync_policy, "--dir", str(tmp_path),
                        "--daemonize", "no"], env=_env(tmp_path) if shim else None, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def _command(port, line: bytes):
    deadline = time.monotonic() + 5
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                s.sendall(line)
                if not line.startswith(b"GET"):
                    return s.recv(64).decode().strip()     # +OK, +PONG: _read_replies reads bulk strings
                return _read_replies(s, 1)[0]
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


@pytest.mark.parametrize("fsync_policy,shim,after_restart", [("no", True, None), ("always", True, "v"),
                                                            ("no", False, "v")])
def test_redis_aof_under_the_shim_keeps_only_what_it_fsynced(tmp_path, fsync_policy, shim, after_restart):
    """appendfsync no never fsyncs the INCR AOF: under the shim a SIGKILL loses the key (without it the
    page cache keeps it); always fsyncs before the reply."""
    port = procs.free_port()
    server = _redis(tmp_path, port, fsync_policy, shim)
    try:
        assert _command(port, b"SET k v\r\n") == "+OK"
        procs.signal_group(server, signal.SIGKILL)
        server.wait()
        procs.forget(server)
        server = _redis(tmp_path, port, fsync_policy, shim)
        assert _command(port, b"GET k\r\n") == after_restart
    finally:
        procs.stop(server)


def _at_wall_ms(ms_into_second: int) -> None:
    """Sleeps until the wall clock is ms_into_second into a second at least 1 s from now."""
    now = time.time()
    time.sleep(1 - (now % 1) + ms_into_second / 1000 + (1 if now % 1 > ms_into_second / 1000 else 0))


def test_everysec_fsyncs_a_write_at_once_unless_one_was_fsynced_in_the_same_wall_second(tmp_path):
    """Redis 7.0 fsyncs everysec when server.unixtime > server.aof_last_fsync (aof.c): the first write
    of a wall-clock second is fsynced at once, a second write in that second waits for the next one, so
    a crash before the second ends loses the second write only."""
    port = procs.free_port()
    server = _redis(tmp_path, port, "everysec")
    try:
        _command(port, b"PING\r\n")
        _at_wall_ms(100)                     # a second after the server's start, when aof_last_fsync was set
        assert _command(port, b"SET a 1\r\n") == "+OK"
        time.sleep(0.1)
        assert _command(port, b"SET b 2\r\n") == "+OK"
        time.sleep(0.1)                      # about 300 ms into the same second
        procs.signal_group(server, signal.SIGKILL)
        server.wait()
        procs.forget(server)
        server = _redis(tmp_path, port, "everysec")
        assert (_command(port, b"GET a\r\n"), _command(port, b"GET b\r\n")) == ("1", None)
    finally:
        procs.stop(server)
