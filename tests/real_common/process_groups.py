"""Starting and stopping a real referee's own processes, and only those — one
module for both referees (tests/real_etcd, tests/real_redis).

Every process a referee starts (etcd members, redis-servers, clients) is
started here, in a process group of its own, and registered. Stopping goes by
those process groups: never by a name (no `pkill etcd`), so another server,
or another test's, is never touched. An atexit hook and SIGTERM/SIGINT/SIGHUP
handlers stop whatever is still registered when the referee ends, however it
ends (a signal becomes an exception, so the runs' own clean-up runs
first); a stopped (SIGSTOPped) process is continued before it is asked to
terminate, and killed if it does not.
"""
import atexit
import os
import signal
import subprocess
import threading
import time

_lock = threading.Lock()
_live: list[subprocess.Popen] = []
# Called with each process's pid as it starts (a referee's record of them,
# which its no-leftovers test reads).
on_start: list = []


def now_ns() -> int:
    """CLOCK_MONOTONIC in nanoseconds: the timeline every record shares."""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def start(argv, *, env=None, stdout=None, stderr=None, stdin=subprocess.DEVNULL, text=True, cwd=None):
    """Starts argv in a new session (its own process group) and registers it."""
    proc = subprocess.Popen(argv, env=env, stdin=stdin, stdout=stdout, stderr=stderr, text=text, cwd=cwd,
                            start_new_session=True, bufsize=1 if text else -1)
    with _lock:
        _live.append(proc)
    for hook in on_start:
        hook(proc.pid)
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
    else:
        # Its group may outlive it (a child it started): none of ours do, but be sure.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
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
    """A signal asked the referee to stop: raised where the main thread is, so every
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
