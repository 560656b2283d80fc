"""Starting and stopping the referee's own processes, and only those.

Every process the referee starts (redis-server, node clients) is started here
in a process group of its own and registered; stopping goes by that group,
never by a name, so another redis-server on the machine is never touched. An
atexit hook and SIGTERM/SIGINT/SIGHUP handlers stop whatever is still
registered however the referee ends (a signal becomes an exception in the
main thread, so every `finally` on the way out runs first). A stopped
(SIGSTOPped) process is continued before it is asked to terminate, and
killed if it does not.
"""
import atexit
import os
import signal
import socket
import subprocess
import threading
import time

_lock = threading.Lock()
_live: list[subprocess.Popen] = []
started_pids: list[int] = []   # every pid ever started, for the no-leftovers test


def now_ns() -> int:
    """CLOCK_MONOTONIC in nanoseconds: the clock every record shares."""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def free_port() -> int:
    """A loopback port that was free a moment ago (bound to port 0, then closed):
    redis-server cannot be told to pick its own."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(argv, *, env=None, stdout=None, stderr=None, stdin=subprocess.DEVNULL, cwd=None):
    """Starts argv in a new session (its own process group) and registers it."""
    proc = subprocess.Popen(argv, env=env, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd,
                            text=True, bufsize=1, start_new_session=True)
    with _lock:
        _live.append(proc)
        started_pids.append(proc.pid)
    pid_log = os.environ.get("LOCKSIM_REAL_REDIS_PID_LOG")
    if pid_log:   # the no-leftovers test reads it, even after a SIGTERM of the driver
        with open(pid_log, "a") as f:
            f.write(f"{proc.pid}\n")
    return proc


def signal_group(proc: subprocess.Popen, sig: int) -> bool:
    """Sends sig to proc's process group if proc is still running; True if sent."""
    if proc.poll() is not None:
        return False
    try:
        os.killpg(proc.pid, sig)
        return True
    except ProcessLookupError:
        return False


def wait_stopped(pid: int, timeout_s: float) -> bool:
    """True once every thread of pid is in the stopped state (a SIGSTOP took effect)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            states = []
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    states.append(f.read().rsplit(")", 1)[1].split()[0])
        except OSError:
            return False
        if states and all(s in ("T", "t") for s in states):
            return True
        time.sleep(0.0005)
    return False


def stop(proc: subprocess.Popen, grace_s: float = 2.0) -> None:
    """Ends proc: SIGCONT then SIGTERM, SIGKILL after grace_s; reaps it and forgets it."""
    if proc.poll() is None:
        signal_group(proc, signal.SIGCONT)
        signal_group(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            signal_group(proc, signal.SIGKILL)
            proc.wait()
    forget(proc)


def forget(proc: subprocess.Popen) -> None:
    with _lock:
        if proc in _live:
            _live.remove(proc)


def stop_all() -> None:
    """Stops every process still registered (the atexit and signal path)."""
    with _lock:
        procs = list(_live)
    for proc in procs:
        stop(proc, grace_s=1.0)


class Interrupted(Exception):
    """A signal asked the referee to stop: raised in the main thread so that every
    `finally` on the way out runs (processes stopped, temporary directories removed)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _on_signal(signum, frame):
    signal.signal(signum, signal.SIG_IGN)   # one is enough
    raise Interrupted(signum)


atexit.register(stop_all)


def install_signal_handlers() -> None:
    """SIGTERM, SIGINT and SIGHUP raise Interrupted in the main thread (call from main)."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _on_signal)
