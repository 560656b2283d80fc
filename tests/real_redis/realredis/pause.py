"""A client's pause made for real — one way for every pause the referee makes
(runner.py's after a step, story_faults.py's inside a request).

SIGSTOP to the client's process group; the stop checked in /proc (every
thread stopped); the `fault pause` and `fault-fired` lines, the latter
saying whether the stop was seen; `release()`, which lets the client go on
past its pause point once it is continued (a line on its stdin, or a go file:
neither can be read while it is stopped); SIGCONT `length_ns` after the
SIGSTOP, the `resume` line recorded just before it — recorded after, this
thread may be scheduled late enough that the client's first record after the
pause comes before the resume (it did, by 1 ms, once).
"""
import signal
import time

from . import procs


def pause_group(proc, client: str, fault_name: str, length_ns: int, observe, release) -> bool:
    """Pauses proc's process group; True when the stop was seen in /proc."""
    procs.signal_group(proc, signal.SIGSTOP)
    sent = time.monotonic()
    stopped = procs.wait_stopped(proc.pid, 2.0)
    observe("fault", {"fault": "pause", "target": client})
    observe("fault-fired", {"fault": fault_name, "took_effect": stopped})
    release()
    time.sleep(max(0.0, sent + length_ns / 1e9 - time.monotonic()))
    observe("fault", {"fault": "resume", "target": client})
    procs.signal_group(proc, signal.SIGCONT)
    return stopped


def go_on(proc) -> None:
    """Lets a client waiting at its pause point go on: a line on its stdin. A client already gone
    (killed, or done) is no error."""
    try:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    except (BrokenPipeError, ValueError):
        pass
