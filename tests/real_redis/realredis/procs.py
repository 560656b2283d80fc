"""The referee's processes: started, signalled and stopped by process group
(tests/real_common/process_groups.py, shared with the real-etcd referee), and
what only this referee needs: ports for redis-server, and a record of every pid
it started for the no-leftovers test.
"""
import os
import socket

from process_groups import Interrupted, forget, install_signal_handlers, now_ns, on_start, signal_group, start, \
    stop, stop_all, wait_stopped  # noqa: F401

started_pids: list[int] = []   # every pid ever started, for the no-leftovers test


def _record(pid: int) -> None:
    started_pids.append(pid)
    pid_log = os.environ.get("LOCKSIM_REAL_REDIS_PID_LOG")
    if pid_log:   # the no-leftovers test reads it, even after a SIGTERM of the driver
        with open(pid_log, "a") as f:
            f.write(f"{pid}\n")


on_start.append(_record)


def free_port() -> int:
    """A loopback port that was free a moment ago (bound to port 0, then closed):
    redis-server cannot be told to pick its own."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
